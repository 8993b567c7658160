// Property-based requests against the running stack: bodies drawn from the
// contracts' zod schemas (zodArbitrary, @effectively-once/contracts/testing),
// valid and mutated (a field dropped, replaced by any JSON value, an unknown
// or "__proto__" key, the text cut short, another content type, a long
// string), an Idempotency-Key drawn from its schema and mutated (missing,
// empty, a space, a tab or a Latin-1 character inside, too long), and
// cancels of real, unknown and malformed order ids, with and without a body,
// all sent through the gateway. Whatever is sent: never a 5xx, never a hang,
// every refusal a problem document with an x-request-id, every repeat of an
// accepted order marked Idempotent-Replayed, and a refused request has no
// effect (the demand tally of the run's own SKUs counts exactly the orders
// answered 201; no order whose cancels were all refused ends cancelled by
// its customer).
import { randomUUID } from 'node:crypto';
import {
  IdempotencyKey,
  OrderId,
  OrderResource,
  PaymentToken,
  PaymentTokenFormat,
  PlaceOrderRequest,
  ProblemDetails,
  RestockRequest,
  Sku,
} from '@effectively-once/contracts';
import { zodArbitrary } from '@effectively-once/contracts/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { apiClient, uniqueSku, type ApiClient } from '../support/api-client.js';

const ANSWER_WITHIN_MS = 5_000;
const RUNS = 60;

let gatewayUrl: string;
let api: ApiClient;
beforeAll(() => {
  gatewayUrl = inject('gatewayUrl');
  api = apiClient(gatewayUrl);
});

interface Sent {
  path: string;
  contentType: string;
  text: string;
  /** The Idempotency-Key header as sent, or undefined for none. */
  idempotencyKey?: string | undefined;
}

/**
 * An Idempotency-Key header: drawn from the contract's schema, or mutated.
 * Each send puts a fresh prefix before it, so two cases never share a key
 * (a shared key would answer the second with the first's order or a 422);
 * a mutation may still make the whole invalid, which is the point.
 */
type KeyPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'drawn'; readonly suffix: string };

/** Characters fetch will send in a header value but the key's schema refuses. */
const FOREIGN = [' ', '\t', '\u00e9', '\u00a0'];

const keyPlan: fc.Arbitrary<KeyPlan> = fc.oneof(
  {
    weight: 8,
    arbitrary: zodArbitrary(IdempotencyKey).map((suffix) => ({ kind: 'drawn' as const, suffix })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(zodArbitrary(IdempotencyKey), fc.nat(), fc.constantFrom(...FOREIGN))
      .map(([key, at, char]) => {
        const cut = at % (key.length + 1);
        return { kind: 'drawn' as const, suffix: `${key.slice(0, cut)}${char}${key.slice(cut)}` };
      }),
  },
  {
    weight: 1,
    arbitrary: zodArbitrary(IdempotencyKey).map((key) => ({
      kind: 'drawn' as const,
      suffix: key.padEnd(300, 'k'),
    })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

let keysSent = 0;
function keyHeader(plan: KeyPlan): string | undefined {
  switch (plan.kind) {
    case 'none':
      return undefined;
    case 'empty':
      return '';
    case 'drawn':
      keysSent += 1;
      return `fz${String(keysSent)}-${RUN}-${plan.suffix}`;
  }
}

/** Whether the key a server receives passes its schema: fetch strips blanks at both ends. */
const keyIsValid = (key: string | undefined) =>
  key !== undefined && IdempotencyKey.safeParse(key.replace(/^[ \t]+|[ \t]+$/g, '')).success;

const RUN = randomUUID().slice(0, 8);

/** One mutation of a JSON object, as the text a client would send. */
const mutatedText = (
  valid: Record<string, unknown>,
): fc.Arbitrary<{ text: string; contentType: string }> => {
  const keys = Object.keys(valid);
  const json = (value: unknown) => ({
    text: JSON.stringify(value),
    contentType: 'application/json',
  });
  return fc.oneof(
    fc.constant(json(valid)),
    fc
      .constantFrom(...keys)
      .map((key) => json(Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key)))),
    fc
      .tuple(fc.constantFrom(...keys), fc.jsonValue())
      .map(([key, value]) => json({ ...valid, [key]: value })),
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue())
      .map(([key, value]) => json({ ...valid, [key]: value })),
    fc.jsonValue().map((value) => ({
      text: `${JSON.stringify(valid).slice(0, -1)},"__proto__":${JSON.stringify(value)}}`,
      contentType: 'application/json',
    })),
    fc.nat().map((cut) => {
      const text = JSON.stringify(valid);
      return { text: text.slice(0, cut % text.length), contentType: 'application/json' };
    }),
    fc
      .constantFrom(
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'application/jsonx',
      )
      .map((contentType) => ({ text: JSON.stringify(valid), contentType })),
    fc.constantFrom(...keys).map((key) => json({ ...valid, [key]: 'x'.repeat(50_000) })),
    fc.string({ maxLength: 200 }).map((text) => ({ text, contentType: 'application/json' })),
  );
};

async function send(sent: Sent): Promise<Response> {
  return fetch(`${gatewayUrl}${sent.path}`, {
    method: 'POST',
    headers: {
      'content-type': sent.contentType,
      ...(sent.idempotencyKey === undefined ? {} : { 'idempotency-key': sent.idempotencyKey }),
    },
    body: sent.text,
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });
}

async function expectNoServerError(
  response: Response,
  sent: Pick<Sent, 'contentType' | 'text' | 'idempotencyKey'>,
): Promise<void> {
  const context = `${sent.contentType} ${sent.text.slice(0, 200)} key=${JSON.stringify(sent.idempotencyKey?.slice(0, 80))}`;
  expect(response.status, context).toBeLessThan(500);
  expect(response.headers.get('x-request-id'), context).toMatch(/\S/);
  if (response.status >= 400) {
    expect(response.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
    ProblemDetails.parse(await response.json());
  } else {
    await response.arrayBuffer();
  }
}

function parsesAs(schema: z.ZodType, sent: Sent): boolean {
  if (sent.contentType.split(';')[0]?.trim() !== 'application/json') return false;
  try {
    return schema.safeParse(JSON.parse(sent.text)).success;
  } catch {
    return false;
  }
}

const Demand = z.object({
  demand: z.array(z.object({ sku: z.string(), unitsOrdered: z.number(), orders: z.number() })),
});

describe('fuzzing the public POST routes through the gateway', () => {
  it('POST /api/orders: never a 5xx or a hang, a repeat of an accepted order is a replay, and only the orders answered 201 take effect', async () => {
    const skus = Array.from({ length: 5 }, (_, index) => uniqueSku(`fuzz${String(index)}`));
    const placed = new Map(skus.map((sku) => [sku, { orders: 0, units: 0 }]));
    // The contract's own shape, with the run's SKUs (so its tally is the run's
    // alone) and mostly card tokens the processor knows (so many are placed).
    const validOrder = zodArbitrary(
      PlaceOrderRequest,
      new Map<z.ZodType, fc.Arbitrary<unknown>>([
        [Sku, fc.constantFrom(...skus)],
        [
          PaymentToken,
          fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom('tok_approve', 'tok_decline') },
            { weight: 1, arbitrary: zodArbitrary(PaymentToken) },
          ),
        ],
      ]),
    );
    // About a third valid as drawn, so enough orders are placed for the tally to mean something.
    const request = fc.record({
      body: validOrder.chain((order) =>
        fc.oneof(
          {
            weight: 1,
            arbitrary: fc.constant({
              text: JSON.stringify(order),
              contentType: 'application/json',
            }),
          },
          { weight: 2, arbitrary: mutatedText(order) },
        ),
      ),
      key: keyPlan,
      repeat: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ body, key, repeat }) => {
        const sent: Sent = { path: '/api/orders', ...body, idempotencyKey: keyHeader(key) };
        const response = await send(sent);
        const status = response.status;
        const answered: unknown = status === 201 ? await response.clone().json() : undefined;
        await expectNoServerError(response, sent);
        if (!keyIsValid(sent.idempotencyKey)) {
          // Refused: 400 for the key, or whatever the body earns first (415, 413, ...).
          expect(status, JSON.stringify(sent.idempotencyKey)).toBeGreaterThanOrEqual(400);
        } else if (parsesAs(PlaceOrderRequest, sent)) {
          // The schema takes any non-empty token; one not in the card format
          // is refused by the order service with 422 before anything starts.
          const { paymentToken } = PlaceOrderRequest.parse(JSON.parse(sent.text));
          expect(status, sent.text).toBe(
            PaymentTokenFormat.safeParse(paymentToken).success ? 201 : 422,
          );
        } else {
          expect(status, sent.text).toBeGreaterThanOrEqual(400);
        }
        if (status !== 201) return;
        const order = PlaceOrderRequest.parse(JSON.parse(sent.text));
        for (const line of order.items) {
          const tally = placed.get(line.sku);
          if (tally !== undefined) {
            tally.orders += 1;
            tally.units += line.quantity;
          }
        }
        if (repeat) {
          // The same request again, as a client that lost the answer: the first order, marked a replay.
          const again = await send(sent);
          expect(again.status, sent.text).toBe(201);
          expect(again.headers.get('idempotent-replayed'), sent.text).toBe('true');
          expect(OrderResource.parse(await again.json()).orderId).toBe(
            OrderResource.parse(answered).orderId,
          );
        }
      }),
      { numRuns: RUNS },
    );
    // Enough were placed for the tally to show a leak: a run that placed none would prove nothing.
    expect([...placed.values()].reduce((sum, tally) => sum + tally.orders, 0)).toBeGreaterThan(3);
    for (const [sku, expected] of placed) {
      const tally = await api.waitFor(
        async () => {
          const response = await fetch(`${gatewayUrl}/api/inventory/demand`);
          return Demand.parse(await response.json()).demand.find((entry) => entry.sku === sku);
        },
        (entry) => (entry?.orders ?? 0) >= expected.orders,
        `${String(expected.orders)} orders counted for ${sku}`,
      );
      expect(
        { sku, orders: tally?.orders ?? 0, unitsOrdered: tally?.unitsOrdered ?? 0 },
        sku,
      ).toEqual({ sku, orders: expected.orders, unitsOrdered: expected.units });
    }
  });

  it('POST /api/inventory/{sku}/restock: never a 5xx or a hang, and a refused restock adds nothing', async () => {
    const sku = uniqueSku('fuzzstock');
    let added = 0;
    const request = zodArbitrary(RestockRequest).chain((body) =>
      mutatedText(body).map((mutation) => ({
        path: `/api/inventory/${sku}/restock`,
        ...mutation,
        idempotencyKey: randomUUID(),
      })),
    );
    await fc.assert(
      fc.asyncProperty(request, async (sent) => {
        const response = await send(sent);
        const status = response.status;
        await expectNoServerError(response, sent);
        expect(status === 200, sent.text).toBe(parsesAs(RestockRequest, sent));
        if (status === 200) added += RestockRequest.parse(JSON.parse(sent.text)).quantity;
      }),
      { numRuns: RUNS },
    );
    const level = await fetch(`${gatewayUrl}/api/inventory/${sku}`);
    if (added === 0) expect(level.status).toBe(404);
    else expect(await level.json()).toMatchObject({ stocked: added });
  });

  it('POST /api/orders/{orderId}/cancel: never a 5xx or a hang, and no order whose cancels were all refused ends cancelled by its customer', async () => {
    const sku = uniqueSku('fuzzcancel');
    await api.restock(sku, 100);
    const orderIds: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const { body } = await api.placeOrder({
        items: [{ sku, quantity: 1 }],
        // Held at the processor for seconds: most cancels find the order still open.
        paymentToken: index % 2 === 0 ? 'tok_timeout' : 'tok_approve',
      });
      orderIds.push(body.orderId);
    }
    const accepted = new Set<string>();
    const target = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...orderIds) },
      { weight: 1, arbitrary: zodArbitrary(OrderId) },
      { weight: 1, arbitrary: fc.string({ maxLength: 120 }) },
    );
    // The documented call has no body; a client may still send one, of any kind.
    const body = fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      fc
        .jsonValue()
        .map((value) => ({ text: JSON.stringify(value), contentType: 'application/json' })),
      fc.string({ maxLength: 40 }).map((text) => ({ text, contentType: 'application/json' })),
      fc
        .constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded')
        .map((contentType) => ({ text: 'cancel=yes', contentType })),
    );
    await fc.assert(
      fc.asyncProperty(target, body, async (orderId, sentBody) => {
        const response = await fetch(
          `${gatewayUrl}/api/orders/${encodeURIComponent(orderId)}/cancel`,
          {
            method: 'POST',
            ...(sentBody === undefined
              ? {}
              : { headers: { 'content-type': sentBody.contentType }, body: sentBody.text }),
            signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
          },
        );
        const status = response.status;
        await expectNoServerError(response, {
          contentType: sentBody?.contentType ?? '(no body)',
          text: `${orderId} ${sentBody?.text ?? ''}`,
        });
        const known = orderIds.includes(orderId);
        if (!known) expect(status, orderId).not.toBe(200);
        if (known && sentBody === undefined) expect([200, 409], orderId).toContain(status);
        if (status === 200) accepted.add(orderId);
      }),
      { numRuns: RUNS },
    );
    // A cancel answered 200 ends the order cancelled by its customer unless it
    // was confirmed first; one never answered 200 must not have cancelled it.
    for (const orderId of orderIds) {
      const ended = await api.waitForStatus(orderId, undefined, 60_000);
      if (!accepted.has(orderId)) {
        expect({ orderId, reason: ended.cancellationReason }).not.toEqual({
          orderId,
          reason: 'customer_request',
        });
      }
    }
    expect(accepted.size).toBeGreaterThan(0);
  });

  it('any path parameter: never a 5xx or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.constantFrom('orders', 'inventory', 'payments'),
        async (param, resource) => {
          const response = await fetch(
            `${gatewayUrl}/api/${resource}/${encodeURIComponent(param)}`,
            {
              signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
            },
          );
          expect(response.status, param).toBeLessThan(500);
          expect(response.headers.get('x-request-id')).toMatch(/\S/);
          await response.arrayBuffer();
        },
      ),
      { numRuns: RUNS },
    );
  });
});
