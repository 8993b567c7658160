// Property-based requests against the running stack: bodies drawn from the
// contracts' zod schemas, valid and mutated (a field dropped, replaced by any
// JSON value, an unknown or "__proto__" key, the text cut short, another
// content type, a long string), sent through the gateway. Whatever is sent:
// never a 5xx, never a hang, every refusal a problem document with an
// x-request-id, and a refused request has no effect (the demand tally of the
// run's own SKU counts exactly the orders that were answered 201).
import { randomUUID } from 'node:crypto';
import {
  PaymentTokenFormat,
  PlaceOrderRequest,
  ProblemDetails,
  RestockRequest,
} from '@effectively-once/contracts';
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
}

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
    headers: { 'content-type': sent.contentType, 'idempotency-key': randomUUID() },
    body: sent.text,
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });
}

async function expectNoServerError(response: Response, sent: Sent): Promise<void> {
  const context = `${sent.contentType} ${sent.text.slice(0, 200)}`;
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
  it('POST /api/orders: never a 5xx or a hang, and only the orders answered 201 take effect', async () => {
    const sku = uniqueSku('fuzz');
    await api.restock(sku, 1_000);
    let placedOrders = 0;
    let placedUnits = 0;
    const validOrder = fc.record({
      customerEmail: fc.stringMatching(/^[a-z]{1,12}$/).map((name) => `${name}@example.com`),
      items: fc.array(
        fc.record({ sku: fc.constant(sku), quantity: fc.integer({ min: 1, max: 3 }) }),
        {
          minLength: 1,
          maxLength: 1,
        },
      ),
      paymentToken: fc.constantFrom('tok_approve', 'tok_decline'),
    });
    const request = validOrder.chain((order) =>
      mutatedText(order).map((mutation) => ({ path: '/api/orders', ...mutation })),
    );
    await fc.assert(
      fc.asyncProperty(request, async (sent) => {
        const response = await send(sent);
        const status = response.status;
        await expectNoServerError(response, sent);
        if (parsesAs(PlaceOrderRequest, sent)) {
          // The schema takes any non-empty token; one not in the card format
          // is refused by the order service with 422 before anything starts.
          const { paymentToken } = PlaceOrderRequest.parse(JSON.parse(sent.text));
          expect(status, sent.text).toBe(
            PaymentTokenFormat.safeParse(paymentToken).success ? 201 : 422,
          );
        } else {
          expect(status, sent.text).toBeGreaterThanOrEqual(400);
        }
        if (status === 201) {
          const order = PlaceOrderRequest.parse(JSON.parse(sent.text));
          placedOrders += 1;
          placedUnits += order.items.reduce(
            (sum, line) => sum + (line.sku === sku ? line.quantity : 0),
            0,
          );
        }
      }),
      { numRuns: RUNS },
    );
    const tally = await api.waitFor(
      async () => {
        const response = await fetch(`${gatewayUrl}/api/inventory/demand`);
        return Demand.parse(await response.json()).demand.find((entry) => entry.sku === sku);
      },
      (entry) => (entry?.orders ?? 0) >= placedOrders,
      `${String(placedOrders)} orders counted for ${sku}`,
    );
    expect(tally ?? { orders: 0, unitsOrdered: 0 }).toMatchObject({
      orders: placedOrders,
      unitsOrdered: placedUnits,
    });
  });

  it('POST /api/inventory/{sku}/restock: never a 5xx or a hang, and a refused restock adds nothing', async () => {
    const sku = uniqueSku('fuzzstock');
    let added = 0;
    const request = fc.record({ quantity: fc.integer({ min: 1, max: 50 }) }).chain((body) =>
      mutatedText(body).map((mutation) => ({
        path: `/api/inventory/${sku}/restock`,
        ...mutation,
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
