// The order-summary projection against real PostgreSQL: it never moves
// backwards, whoever writes late or twice, and a crash between an append and
// the summary write is repaired by the writer that comes next.
import { CONSUMERS, inventoryStream, orderStream } from '@effectively-once/contracts';
import { settleDelivery, withProcessingHooks } from '@effectively-once/idempotency';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendOrderEvents, loadOrder } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { upsertOrderSummary } from '../adapters/postgres/order-summary.repository.js';
import { handleOrderSagaEvent } from '../order-saga/order-saga.handler.js';
import {
  cancellationRequested,
  CUSTOMER_EMAIL,
  inventoryReserved,
  ITEMS,
  orderPlaced,
  PLACED_AT,
  paymentRequested,
} from '../domain/testing/order.fixtures.js';
import { appendedWithoutSummary } from '../testing/order-history.js';
import { createOrderTestEnv, publish } from '../testing/order-test-env.js';
import { projectOrderSummary } from './order-summary.projection.js';

const env = await createOrderTestEnv();

async function summaryRow(orderId: string) {
  return env.db
    .selectFrom('order_summary')
    .selectAll()
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

const cancel = (orderId: string) =>
  env.app.inject({ method: 'POST', url: `/orders/${orderId}/cancel` });

describe('the order-summary projection', () => {
  it('keeps the later version when an older one or the same one is written after it', async () => {
    const orderId = randomUUID();
    const at = (version: number, status: 'awaiting_payment' | 'cancelling') => ({
      order_id: orderId,
      status,
      version,
      placed_at: PLACED_AT,
    });

    const first = await upsertOrderSummary(env.db, at(2, 'cancelling'));
    const late = await upsertOrderSummary(env.db, at(1, 'awaiting_payment'));
    const repeated = await upsertOrderSummary(env.db, at(2, 'cancelling'));

    expect([first, late, repeated]).toEqual([true, false, false]);
    expect(await summaryRow(orderId)).toMatchObject({ version: 2, status: 'cancelling' });
  });

  it('ends at the highest version when writers of every version race', async () => {
    const orderId = randomUUID();
    const versions = [3, 0, 5, 1, 4, 2, 5, 0];

    await Promise.all(
      versions.map((version) =>
        upsertOrderSummary(env.db, {
          order_id: orderId,
          status: version === 5 ? 'cancelled' : 'awaiting_payment',
          version,
          placed_at: PLACED_AT,
        }),
      ),
    );

    expect(await summaryRow(orderId)).toMatchObject({ version: 5, status: 'cancelled' });
  });

  it('ignores a writer that folded the order before a later append', async () => {
    const orderId = randomUUID();
    await appendedWithoutSummary(env.store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
    });
    const stale = await loadOrder(env.store, orderId);
    await cancel(orderId);

    await projectOrderSummary(env.db, stale);

    expect(await summaryRow(orderId)).toMatchObject({ version: 1, status: 'cancelling' });
  });

  it('is written by POST /orders before it answers', async () => {
    const response = await env.app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'idempotency-key': randomUUID() },
      payload: { customerEmail: CUSTOMER_EMAIL, items: ITEMS, paymentToken: 'tok_approve' },
    });
    const order = response.json<{ orderId: string; placedAt: string }>();

    expect(await summaryRow(order.orderId)).toEqual({
      order_id: order.orderId,
      status: 'awaiting_inventory',
      version: 0,
      placed_at: new Date(order.placedAt),
    });
  });

  it('is repaired by the retried cancel when the first one died after its append', async () => {
    const orderId = randomUUID();
    await appendedWithoutSummary(env.store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
    });
    await projectOrderSummary(env.db, await loadOrder(env.store, orderId));
    await appendedWithoutSummary(env.store, {
      orderId,
      events: [cancellationRequested(orderId, 'customer_request')],
      expectedRevision: 0n,
    });
    expect(await summaryRow(orderId)).toMatchObject({ version: 0 });

    const retried = await cancel(orderId);

    expect(retried.statusCode).toBe(200);
    expect(await summaryRow(orderId)).toMatchObject({ version: 1, status: 'cancelling' });
  });

  it("is repaired by the saga's redelivery when the step died after its append, before its commit", async () => {
    const orderId = randomUUID();
    await appendedWithoutSummary(env.store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
    });
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );
    // The step's append, with the ids it derives from the message; then the crash.
    await appendOrderEvents(env.store, {
      orderId,
      events: [paymentRequested(orderId)],
      expectedRevision: 0n,
      causeId: recorded.id,
    });
    expect(await summaryRow(orderId)).toBeUndefined();

    const redelivered = await handleOrderSagaEvent(env, event, recorded);

    expect(redelivered).toMatchObject({ outcome: 'applied', result: { appended: [] } });
    expect(await summaryRow(orderId)).toMatchObject({ version: 1, status: 'awaiting_payment' });
    expect(await env.store.readStream(orderStream(orderId))).toHaveLength(2);
  });

  it('is written in the saga step that appends, with its marker', async () => {
    const orderId = randomUUID();
    await appendOrderEvents(env.store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
      causeId: commandCause('PlaceOrder', orderId),
    });
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );

    await handleOrderSagaEvent(env, event, recorded);

    expect(await summaryRow(orderId)).toMatchObject({ version: 1, status: 'awaiting_payment' });
  });

  it("commits with the saga's marker or not at all: a transaction that fails after the step leaves neither, and the delivery unacknowledged", async () => {
    const orderId = randomUUID();
    await appendOrderEvents(env.store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
      causeId: commandCause('PlaceOrder', orderId),
    });
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );
    // The lab's after-business point: the step has run in the transaction, which now fails.
    const failAfterStep = {
      reached: (point: string) =>
        point === 'after-business'
          ? Promise.reject(new Error('the transaction fails after the step'))
          : Promise.resolve(),
    };
    const settled: string[] = [];
    const delivery = {
      ack: () => {
        settled.push('ack');
        return Promise.resolve();
      },
      nack: (action: 'retry' | 'park') => {
        settled.push(action);
        return Promise.resolve();
      },
    };

    const settlement = await settleDelivery(delivery, () =>
      withProcessingHooks(failAfterStep, () => handleOrderSagaEvent(env, event, recorded)),
    );

    expect(settlement.action).not.toBe('ack');
    expect(settled).not.toContain('ack');
    // The append is not part of the transaction: it stays, for the redelivery to find.
    expect(await env.store.readStream(orderStream(orderId))).toHaveLength(2);
    const marker = await env.db
      .selectFrom('processed_message')
      .selectAll()
      .where('consumer_name', '=', CONSUMERS.orderSaga)
      .where('message_id', '=', recorded.id)
      .executeTakeFirst();
    expect(marker).toBeUndefined();
    expect(await summaryRow(orderId)).toBeUndefined();
  });
});
