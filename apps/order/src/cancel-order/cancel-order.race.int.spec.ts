// The customer's cancel racing the saga: a WrongExpectedRevision makes it
// reload and decide again, a bounded number of times.
import { orderStream } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderPlaced, paymentRequested } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { withRivalAppends } from '../testing/rival-writer.js';
import { appendOrderEvents } from '../adapters/eventStore/order-stream.js';
import { cancelOrder, MAX_CANCEL_ATTEMPTS } from './cancel-order.handler.js';

const env = await createOrderTestEnv();

async function placedOrder(): Promise<string> {
  const orderId = randomUUID();
  await appendOrderEvents(env.store, {
    orderId,
    events: [orderPlaced(orderId)],
    expectedRevision: 'no_stream',
    causeId: randomUUID(),
  });
  return orderId;
}

/** The saga's step, landing between the cancel's load and its append. */
const sagaAppends = (orderId: string) => () => {
  const { type, data } = paymentRequested(orderId);
  return env.store.appendToStream(
    orderStream(orderId),
    [{ id: randomUUID(), type, data: { ...data } }],
    {
      expectedRevision: 'any',
    },
  );
};

describe('cancel racing the saga', () => {
  it('reloads after a WrongExpectedRevision and cancels the order in its new state', async () => {
    const orderId = await placedOrder();
    const store = withRivalAppends(env.store, { times: 1, rival: sagaAppends(orderId) });

    const order = await cancelOrder({ db: env.db, store, now: env.now }, { orderId });

    expect(order).toMatchObject({ status: 'cancelling', version: 2 });
    const events = await env.store.readStream(orderStream(orderId));
    expect(events.map((event) => event.type)).toEqual([
      'OrderPlaced',
      'OrderPaymentRequested',
      'OrderCancellationRequested',
    ]);
  });

  it(`gives up with 409 ORDER_CHANGED_CONCURRENTLY after ${String(MAX_CANCEL_ATTEMPTS)} lost races`, async () => {
    const orderId = await placedOrder();
    const store = withRivalAppends(env.store, {
      times: MAX_CANCEL_ATTEMPTS,
      rival: sagaAppends(orderId),
    });

    await expect(
      cancelOrder({ db: env.db, store, now: env.now }, { orderId }),
    ).rejects.toMatchObject({
      status: 409,
      code: 'ORDER_CHANGED_CONCURRENTLY',
    });
    const events = await env.store.readStream(orderStream(orderId));
    expect(events.map((event) => event.type)).not.toContain('OrderCancellationRequested');
  });
});
