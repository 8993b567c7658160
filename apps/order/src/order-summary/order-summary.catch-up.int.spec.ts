// The catch-up at start against real PostgreSQL: orders with a key row and a
// stream but no summary (placed before the projection, or a placement that
// died before its summary write) are summarised; nothing else is touched.
// GET /orders waits for it.
import { orderStream } from '@effectively-once/contracts';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimOrderRequest } from '../adapters/postgres/order-request.repository.js';
import { orderPlaced, paymentRequested, PLACED_AT } from '../domain/testing/order.fixtures.js';
import { listOrders } from '../list-orders/list-orders.handler.js';
import { placedWithoutSummary } from '../testing/order-history.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { catchUpOrderSummaries, startOrderSummaryCatchUp } from './order-summary.catch-up.js';
import { caughtUpLatch } from './summaries-caught-up.js';

const env = await createOrderTestEnv();

/** A logger whose lines the test reads. */
function recordingLog() {
  const lines: string[] = [];
  const { log } = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
  });
  return { log, text: () => lines.join('') };
}

const deps = (log = recordingLog().log) => ({ db: env.db, store: env.store, log });

/** An order whose stream holds an event the order service cannot fold. */
async function poisonedWithoutSummary(): Promise<string> {
  const orderId = await placedWithoutSummary(env, (id) => [orderPlaced(id)]);
  await env.store.appendToStream(
    orderStream(orderId),
    [{ id: randomUUID(), type: 'SomethingForeign', data: {}, metadata: {} }],
    { expectedRevision: 'any' },
  );
  return orderId;
}

describe('catchUpOrderSummaries', () => {
  it('lists the orders that had no summary, as their streams hold them, and leaves a key row without an order unlisted', async () => {
    const placed = await placedWithoutSummary(env, (id) => [orderPlaced(id)]);
    const paying = await placedWithoutSummary(env, (id) => [orderPlaced(id), paymentRequested(id)]);
    const neverAppended = randomUUID();
    await claimOrderRequest(env.db, {
      idempotencyKey: randomUUID(),
      requestFingerprint: 'crashed-before-append',
      orderId: neverAppended,
      createdAt: PLACED_AT,
    });
    expect((await listOrders(env, { limit: 100 })).orders).toEqual([]);

    // Pages of one: the walk goes on past the first page and past the row without an order.
    const result = await catchUpOrderSummaries(deps(), { batchSize: 1 });

    expect(result).toEqual({ checked: 3, summarised: 2, unreadable: 0, finished: true });
    const { orders } = await listOrders(env, { limit: 100 });
    expect(orders).toEqual(
      expect.arrayContaining([
        {
          orderId: placed,
          status: 'awaiting_inventory',
          version: 0,
          placedAt: PLACED_AT.toISOString(),
        },
        {
          orderId: paying,
          status: 'awaiting_payment',
          version: 1,
          placedAt: PLACED_AT.toISOString(),
        },
      ]),
    );
    expect(orders.map((order) => order.orderId)).not.toContain(neverAppended);
    expect(await env.store.readStream(orderStream(neverAppended))).toEqual([]);
  });

  it('finds nothing to do the second time', async () => {
    await placedWithoutSummary(env, (id) => [orderPlaced(id)]);
    await catchUpOrderSummaries(deps());

    expect(await catchUpOrderSummaries(deps())).toMatchObject({ summarised: 0 });
  });

  it('skips an order whose stream cannot be read, logs its id and goes on with the next key', async () => {
    // The poisoned key row is older than the good one: it comes first.
    const poisoned = await poisonedWithoutSummary();
    const good = await placedWithoutSummary(env, (id) => [orderPlaced(id), paymentRequested(id)]);
    const { log, text } = recordingLog();

    const result = await catchUpOrderSummaries(deps(log), { batchSize: 1 });

    expect(result).toMatchObject({ summarised: 1, unreadable: 1, finished: true });
    const listed = (await listOrders(env, { limit: 100 })).orders.map((order) => order.orderId);
    expect(listed).toContain(good);
    expect(listed).not.toContain(poisoned);
    expect(text()).toContain(`order-summary catch-up skipped order=${poisoned}`);
  });
});

describe('startOrderSummaryCatchUp', () => {
  it('runs beside the service once started, logs what it did, and lets the waiting listing answer', async () => {
    const orderId = await placedWithoutSummary(env, (id) => [
      orderPlaced(id),
      paymentRequested(id),
    ]);
    const { log, text } = recordingLog();
    const latch = caughtUpLatch();
    // Asked before the catch-up runs: it waits for it instead of leaving the order out.
    const listing = listOrders({ db: env.db, summaries: latch }, { limit: 100 });

    const catchUp = startOrderSummaryCatchUp({ deps: deps(log), latch });
    await catchUp.done;
    await catchUp.close();

    expect((await listing).orders).toContainEqual(
      expect.objectContaining({ orderId, status: 'awaiting_payment', version: 1 }),
    );
    // The key rows left without one by the tests above are checked again, too.
    expect(text()).toMatch(/order summaries caught up: 1 of \d+ key rows without one/);
  });

  it('fails the waiting listing when closed before it finished, rather than answer an incomplete page', async () => {
    await placedWithoutSummary(env, (id) => [orderPlaced(id)]);
    const latch = caughtUpLatch();
    const listing = listOrders({ db: env.db, summaries: latch }, { limit: 100 });
    const catchUp = startOrderSummaryCatchUp({ deps: deps(), latch });

    // Closed before its first order: the abort is checked before each one.
    await catchUp.close();

    await expect(listing).rejects.toThrow(/stopped before its order summaries were caught up/);
  });
});
