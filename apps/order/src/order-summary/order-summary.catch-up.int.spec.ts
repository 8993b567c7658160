// The catch-up at start against real PostgreSQL: orders with a key row and a
// stream but no summary (placed before the projection, or a placement that
// died before its summary write) are summarised; nothing else is touched.
import { orderStream } from '@effectively-once/contracts';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendOrderEvents, commandCause } from '../adapters/eventStore/order-stream.js';
import { claimOrderRequest } from '../adapters/postgres/order-request.repository.js';
import { orderPlaced, paymentRequested, PLACED_AT } from '../domain/testing/order.fixtures.js';
import { listOrders } from '../list-orders/list-orders.handler.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { catchUpOrderSummaries, startOrderSummaryCatchUp } from './order-summary.catch-up.js';

const env = await createOrderTestEnv();

/** A key row and its order's stream, with no summary: what the old code left. */
async function placedWithoutSummary(events: 1 | 2): Promise<string> {
  const orderId = randomUUID();
  await claimOrderRequest(env.db, {
    idempotencyKey: randomUUID(),
    requestFingerprint: 'before-the-projection',
    orderId,
    createdAt: PLACED_AT,
  });
  await appendOrderEvents(env.store, {
    orderId,
    events:
      events === 1 ? [orderPlaced(orderId)] : [orderPlaced(orderId), paymentRequested(orderId)],
    expectedRevision: 'no_stream',
    causeId: commandCause('PlaceOrder', orderId),
  });
  return orderId;
}

describe('catchUpOrderSummaries', () => {
  it('lists the orders that had no summary, as their streams hold them, and leaves a key row without an order unlisted', async () => {
    const placed = await placedWithoutSummary(1);
    const paying = await placedWithoutSummary(2);
    const neverAppended = randomUUID();
    await claimOrderRequest(env.db, {
      idempotencyKey: randomUUID(),
      requestFingerprint: 'crashed-before-append',
      orderId: neverAppended,
      createdAt: PLACED_AT,
    });
    expect((await listOrders(env, { limit: 100 })).orders).toEqual([]);

    // Pages of one: the walk goes on past the first page and past the row without an order.
    const result = await catchUpOrderSummaries(env, { batchSize: 1 });

    expect(result).toEqual({ checked: 3, summarised: 2 });
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
    await placedWithoutSummary(1);
    await catchUpOrderSummaries(env);

    expect(await catchUpOrderSummaries(env)).toMatchObject({ summarised: 0 });
  });

  it('runs beside the service once started, and logs what it did', async () => {
    const orderId = await placedWithoutSummary(2);
    const lines: string[] = [];
    const { log } = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });

    const catchUp = startOrderSummaryCatchUp({ deps: env, log });
    await catchUp.done;
    await catchUp.close();

    const { orders } = await listOrders(env, { limit: 100 });
    expect(orders).toContainEqual(expect.objectContaining({ orderId, version: 1 }));
    // The key row of the first test's never-appended order is checked again, too.
    expect(lines.join('')).toMatch(/order summaries caught up: 1 of \d+ key rows without one/);
  });
});
