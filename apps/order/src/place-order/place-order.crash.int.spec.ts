// A POST /orders that died between its steps, retried with the same key:
// the retry finishes the job for the same order id, and appends nothing twice.
import { orderStream, type PlaceOrderRequest } from '@effectively-once/contracts';
import { requestFingerprint } from '@effectively-once/service-kit/idempotency-key';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderDeadlines } from '../domain/order-deadlines.js';
import { decide } from '../domain/order.decide.js';
import { initialOrderState } from '../domain/order.state.js';
import { CUSTOMER_EMAIL, ITEMS, paymentRequested } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv, DEFAULT_DEADLINES } from '../testing/order-test-env.js';
import { appendOrderEvents } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { fireDueDeadlines } from '../deadline-timer/fire-due-deadlines.js';
import { findOrderRequest } from '../adapters/postgres/order-request.repository.js';
import { claimWithTimers } from './place-order.handler.js';

const env = await createOrderTestEnv();
const body: PlaceOrderRequest = {
  customerEmail: CUSTOMER_EMAIL,
  items: ITEMS,
  paymentToken: 'tok_approve',
};

/** Step 1 of a first attempt: the key's row committed, with its order id and its timers. */
async function keyRowCommitted(idempotencyKey: string) {
  return claimWithTimers(
    { ...env, now: () => new Date('2026-11-30T08:00:00.000Z') },
    { idempotencyKey, requestFingerprint: requestFingerprint(body) },
  );
}

/** Step 2 of a first attempt: OrderPlaced appended, as the route appends it. */
async function orderPlacedAppended(orderId: string, placedAt: Date): Promise<void> {
  const decision = decide(
    {
      type: 'PlaceOrder',
      data: {
        orderId,
        ...body,
        deadlines: orderDeadlines(placedAt, DEFAULT_DEADLINES),
        now: placedAt,
      },
    },
    initialOrderState(),
  );
  if (decision.outcome !== 'accepted') throw new Error('PlaceOrder was refused');
  await appendOrderEvents(env.store, {
    orderId,
    events: decision.events,
    expectedRevision: 'no_stream',
    causeId: commandCause('PlaceOrder', orderId),
  });
}

const retry = (idempotencyKey: string) =>
  env.app.inject({
    method: 'POST',
    url: '/orders',
    headers: { 'idempotency-key': idempotencyKey },
    payload: body,
  });

describe('POST /orders after a crash', () => {
  it('crashed after the append, before the response was stored: answers with the same order', async () => {
    const key = randomUUID();
    const row = await keyRowCommitted(key);
    await orderPlacedAppended(row.order_id, row.created_at);

    const response = await retry(key);

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      orderId: row.order_id,
      status: 'awaiting_inventory',
      placedAt: row.created_at.toISOString(),
    });
    expect(await env.store.readStream(orderStream(row.order_id))).toHaveLength(1);
    expect((await findOrderRequest(env.db, key))?.response).toEqual(response.json());
  });

  it('crashed after the append, retried after the saga moved the order on: the summary shows the stream, not the placement', async () => {
    const key = randomUUID();
    const row = await keyRowCommitted(key);
    await orderPlacedAppended(row.order_id, row.created_at);
    // The saga's next step, appended while the placement had no summary row yet.
    await appendOrderEvents(env.store, {
      orderId: row.order_id,
      events: [paymentRequested(row.order_id)],
      expectedRevision: 0n,
      causeId: randomUUID(),
    });

    const response = await retry(key);

    expect(response.statusCode).toBe(201);
    const summary = await env.db
      .selectFrom('order_summary')
      .selectAll()
      .where('order_id', '=', row.order_id)
      .executeTakeFirst();
    expect(summary).toMatchObject({
      status: 'awaiting_payment',
      version: 1,
    });
  });

  it("crashed after the key row, before the append: places the order under the row's order id", async () => {
    const key = randomUUID();
    const row = await keyRowCommitted(key);

    const response = await retry(key);

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ orderId: row.order_id, version: 0 });
    expect(await env.store.readStream(orderStream(row.order_id))).toHaveLength(1);
  });

  it('answers the retry after that with the stored response, byte for byte', async () => {
    const key = randomUUID();
    const row = await keyRowCommitted(key);
    await orderPlacedAppended(row.order_id, row.created_at);
    const recovered = await retry(key);

    const replayed = await retry(key);

    expect(replayed.body).toBe(recovered.body);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it('crashed after the key row, retried after its deadlines fired into the empty stream: the timers fire again on the order', async () => {
    const key = randomUUID();
    const row = await keyRowCommitted(key);
    // Long after the row's time: every deadline of the order has passed.
    const timer = { db: env.db, store: env.store, now: () => new Date(), log: env.app.log };
    await fireDueDeadlines(timer, { limit: 1_000 });

    const response = await retry(key);
    await fireDueDeadlines(timer, { limit: 1_000 });

    expect(response.statusCode).toBe(201);
    expect(
      (await env.store.readStream(orderStream(row.order_id))).map((event) => event.type),
    ).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
  });
});
