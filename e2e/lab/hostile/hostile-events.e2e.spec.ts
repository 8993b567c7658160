// Hostile events on a stack of their own (with an admin token, to read the
// parked lists): a seeded batch of unknown types, unknown
// schema versions, broken and huge payloads, events for orders that do not
// exist and events out of order, appended straight into the order, inventory
// and payment streams between normal orders. Each hostile event must end as
// its plan says (refused, delivered to nobody, parked with its reason, or
// settled), nothing may stay in flight, and the normal orders end as they
// should with every invariant held. HOSTILE_SEED=<n> replays a run.
import { randomBytes, randomUUID } from 'node:crypto';
import { paymentAttemptId, paymentStream } from '@effectively-once/contracts';
import {
  DEFAULT_MAX_EVENT_BYTES,
  InvalidInputError,
  type EventStore,
} from '@effectively-once/event-store';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import { openEventStore } from '@effectively-once/service-kit';
import { readAuditTarget, type AuditTarget } from '@effectively-once/invariants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditWhenSettled, notHeld } from '../invariants/audit-support.js';
import { apiClient, uniqueSku, type ApiClient } from '../../support/api-client.js';
import { startStack, type RunningStack } from '../../support/start-stack.js';
import { hostilePlans, type HostileAppend, type HostilePlan } from './hostile-events.js';
import { settledProblems, waitForLineage } from './lineage-check.js';
import { parkedProblems, readAllParked } from './parked-check.js';

const SEED = Number(process.env['HOSTILE_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const PLANS = 16;
/** A normal order after every this many hostile plans. */
const NORMAL_EVERY = 2;

let running: RunningStack;
let adminToken: string;
let api: ApiClient;
let target: AuditTarget;
let store: EventStore;

beforeAll(async () => {
  adminToken = randomBytes(16).toString('hex');
  running = await startStack({ env: { STACK_CONSOLE: 'true', ADMIN_TOKEN: adminToken } });
  api = apiClient(running.gatewayUrl);
  target = await readAuditTarget(running.stateFile);
  store =
    target.eventStore === undefined
      ? createPostgresEventStore({ url: target.databases.eventStore })
      : await openEventStore({
          config: target.eventStore,
          postgresUrl: target.databases.eventStore,
        });
});

afterAll(async () => {
  await store.close();
  await running.stop();
});

/** Whether the plan wrote into the order's own stream: only then has the order a lineage. */
const hasLineage = (plan: HostilePlan) =>
  plan.appends.some(
    (append) => append.expected.kind !== 'refused' && append.streamName === `order-${plan.orderId}`,
  );

/** Polls `problems` until it finds none, or returns the last ones at the deadline. */
async function problemsWhenSettled(
  problems: () => Promise<string[]>,
  timeoutMs = 20_000,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await problems();
    if (found.length === 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Appends one hostile event; a refusal is its outcome, not a failure of the test. */
async function appendHostile(append: HostileAppend): Promise<string | undefined> {
  try {
    await store.appendToStream(append.streamName, [append.event], { expectedRevision: 'any' });
    return undefined;
  } catch (error) {
    if (error instanceof InvalidInputError) return error.code;
    throw error;
  }
}

describe(`hostile events appended straight into the streams (HOSTILE_SEED=${String(SEED)})`, () => {
  it('are refused, delivered to nobody, parked with their reason or settled by rule, while normal orders flow and the invariants hold', async () => {
    const sku = uniqueSku('hostile-normal');
    const hostileSku = uniqueSku('hostile');
    await api.restock(sku, 50);
    await api.restock(hostileSku, 50);
    const plans = hostilePlans({
      seed: SEED,
      count: PLANS,
      context: {
        stockedSku: hostileSku,
        maxEventBytes: target.eventStore?.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
      },
    });

    const normal: { orderId: string; wanted: 'confirmed' | 'cancelled' }[] = [];
    const refusals = new Map<string, string | undefined>();
    for (const [index, plan] of plans.entries()) {
      for (const append of plan.appends) refusals.set(append.event.id, await appendHostile(append));
      if (index % NORMAL_EVERY === 0) {
        const approve = normal.length % 3 !== 2;
        const { body } = await api.placeOrder({
          items: [{ sku, quantity: 1 }],
          paymentToken: approve ? 'tok_approve' : 'tok_decline',
        });
        normal.push({ orderId: body.orderId, wanted: approve ? 'confirmed' : 'cancelled' });
      }
    }

    // The normal orders end as they would have without the noise.
    const ended = await Promise.all(normal.map(({ orderId }) => api.waitForStatus(orderId)));
    expect(ended.map((order) => order.status)).toEqual(normal.map(({ wanted }) => wanted));

    // Refused appends wrote nothing; the rest are refused by nobody.
    for (const plan of plans) {
      for (const append of plan.appends) {
        const code = refusals.get(append.event.id);
        const wantedCode = append.expected.kind === 'refused' ? append.expected.code : undefined;
        expect({ plan: plan.description, code }).toEqual({
          plan: plan.description,
          code: wantedCode,
        });
        if (wantedCode !== undefined) {
          const stored = await store.readStream(append.streamName);
          expect(stored.map((event) => event.id)).not.toContain(append.event.id);
        }
      }
    }

    // Every stored hostile event ends as its plan says. With an order stream,
    // its lineage shows each consumer's state, and nothing of the order (what
    // the hostile events caused included) may stay in flight; without one,
    // the parked lists show what was parked, and why.
    const lineagePlans = plans.filter(hasLineage);
    const lineageProblems = await Promise.all(
      lineagePlans.map(async (plan) => {
        const lineage = await waitForLineage(
          running.gatewayUrl,
          plan,
          (found) => settledProblems(plan, found).length === 0,
          20_000,
        );
        return settledProblems(plan, lineage);
      }),
    );
    expect(lineageProblems.flat()).toEqual([]);
    const otherPlans = plans.filter((plan) => !hasLineage(plan));
    const parkedListProblems = await problemsWhenSettled(async () => {
      const parked = await readAllParked(running.gatewayUrl, adminToken);
      return otherPlans.flatMap((plan) => parkedProblems(plan, parked));
    });
    expect(parkedListProblems).toEqual([]);

    const report = await auditWhenSettled(target, {
      orderIds: normal.map(({ orderId }) => orderId),
      skus: [sku],
    });
    expect(notHeld(report)).toEqual([]);
  });

  it('park a forged authorization of another amount for an order awaiting payment, which its own authorization then confirms', async () => {
    const sku = uniqueSku('hostile-forged');
    await api.restock(sku, 5);
    // tok_timeout: the card processor answers late, so the order waits for payment for seconds.
    const { body: order } = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_timeout',
    });
    await api.waitForStatus(order.orderId, (status) => status === 'awaiting_payment');
    const forgedId = randomUUID();
    await store.appendToStream(
      paymentStream(order.orderId),
      [
        {
          id: forgedId,
          type: 'PaymentAuthorized',
          data: {
            orderId: order.orderId,
            paymentAttemptId: paymentAttemptId(order.orderId),
            authorizationId: 'auth-forged',
            amountCents: order.amountCents + 1,
            authorizedAt: new Date().toISOString(),
          },
          metadata: { schemaVersion: 1, correlationId: order.orderId },
        },
      ],
      { expectedRevision: 'any' },
    );

    const forged = await problemsWhenSettled(async () => {
      const parked = (await readAllParked(running.gatewayUrl, adminToken)).find(
        (message) => message.eventId === forgedId,
      );
      return (parked?.reason ?? '').includes(`authorizes ${String(order.amountCents + 1)} cents`)
        ? []
        : [`the forged authorization is not parked for its amount: ${JSON.stringify(parked)}`];
    });
    expect(forged).toEqual([]);
    const ended = await api.waitForStatus(order.orderId, undefined, 20_000);
    expect(ended.status).toBe('confirmed');
    // Every invariant holds but one, on purpose: the forged message waits,
    // parked, for an operator, and the auditor says so.
    const report = await auditWhenSettled(target, { orderIds: [order.orderId], skus: [sku] });
    expect(
      notHeld(report).map((check) => ({
        name: check.name,
        subjects: check.violations.map((violation) => violation.subject),
      })),
    ).toEqual([{ name: 'nothing-parked', subjects: [`order-saga-v1: message ${forgedId}`] }]);
  });
});
