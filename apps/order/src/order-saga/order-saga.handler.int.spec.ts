// The saga's consumer under redelivery: once per message, even when the marker
// is lost, and the right failure kind when it cannot proceed.
import {
  CONSUMERS,
  inventoryStream,
  orderStream,
  paymentStream,
} from '@effectively-once/contracts';
import { ConsumerFailure } from '@effectively-once/idempotency';
import { randomUUID } from 'node:crypto';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { describe, expect, it } from 'vitest';
import {
  inventoryReserved,
  orderPlaced,
  paymentRequested,
} from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv, publish } from '../testing/order-test-env.js';
import { withRivalAppends } from '../testing/rival-writer.js';
import { appendOrderEvents } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { handleOrderSagaEvent } from './order-saga.handler.js';

const env = await createOrderTestEnv();
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();

async function placedOrder(): Promise<string> {
  const orderId = randomUUID();
  await appendOrderEvents(env.store, {
    orderId,
    events: [orderPlaced(orderId)],
    expectedRevision: 'no_stream',
    causeId: commandCause('PlaceOrder', orderId),
  });
  return orderId;
}

const orderEventTypes = async (orderId: string) =>
  (await env.store.readStream(orderStream(orderId))).map((event) => event.type);

describe('order-saga-v1', () => {
  it('appends OrderPaymentRequested once when InventoryReserved is delivered twice', async () => {
    const orderId = await placedOrder();
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );

    const first = await handleOrderSagaEvent(env, event, recorded);
    const second = await handleOrderSagaEvent(env, event, recorded);

    expect(first).toMatchObject({
      outcome: 'applied',
      result: { appended: ['OrderPaymentRequested'] },
    });
    expect(second).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(await orderEventTypes(orderId)).toEqual(['OrderPlaced', 'OrderPaymentRequested']);
  });

  it('appends nothing again when the marker is lost: the order has moved on, the decider says []', async () => {
    const orderId = await placedOrder();
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );
    await handleOrderSagaEvent(env, event, recorded);
    await env.db
      .deleteFrom('processed_message')
      .where('consumer_name', '=', CONSUMERS.orderSaga)
      .where('message_id', '=', recorded.id)
      .execute();

    const redelivered = await handleOrderSagaEvent(env, event, recorded);

    expect(redelivered).toMatchObject({ outcome: 'applied', result: { appended: [] } });
    expect(await orderEventTypes(orderId)).toEqual(['OrderPlaced', 'OrderPaymentRequested']);
  });

  it('fails retryably, committing no marker, when another writer appended first', async () => {
    const orderId = await placedOrder();
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );
    const customerCancels = () =>
      env.app.inject({ method: 'POST', url: `/orders/${orderId}/cancel` });
    const store = withRivalAppends(env.store, { times: 1, rival: customerCancels });

    const failure = await handleOrderSagaEvent({ ...env, store }, event, recorded).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(ConsumerFailure);
    expect(failure).toMatchObject({ kind: 'retryable' });
    const redelivered = await handleOrderSagaEvent(env, event, recorded);
    expect(redelivered).toMatchObject({ outcome: 'applied', result: { appended: [] } });
    expect(await orderEventTypes(orderId)).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
  });

  it('fails terminally, with the reason, for an order that does not exist', async () => {
    const orderId = randomUUID();
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );

    const failure = await handleOrderSagaEvent(env, event, recorded).catch(
      (error: unknown) => error,
    );

    if (!(failure instanceof ConsumerFailure)) throw new Error('expected a ConsumerFailure');
    expect(failure.kind).toBe('terminal');
    expect(failure.reason).toContain('does not exist');
    expect(await orderEventTypes(orderId)).toEqual([]);
  });

  it('fails terminally, confirming nothing, for an authorization of another amount than the order asked for', async () => {
    const orderId = await placedOrder();
    await appendOrderEvents(env.store, {
      orderId,
      events: [paymentRequested(orderId)],
      expectedRevision: 0n,
      causeId: randomUUID(),
    });
    const { event, recorded } = await publish(env.store, paymentStream(orderId), {
      type: 'PaymentAuthorized',
      data: {
        orderId,
        paymentAttemptId: `${orderId}:1`,
        authorizationId: 'auth-1',
        amountCents: 1,
        authorizedAt: new Date().toISOString(),
      },
    });

    const failure = await handleOrderSagaEvent(env, event, recorded).catch(
      (error: unknown) => error,
    );

    if (!(failure instanceof ConsumerFailure)) throw new Error('expected a ConsumerFailure');
    expect(failure.kind).toBe('terminal');
    expect(failure.reason).toContain('authorizes 1 cents, but the order is for');
    expect(await orderEventTypes(orderId)).toEqual(['OrderPlaced', 'OrderPaymentRequested']);
  });

  it('fails terminally, with the reason, when the order stream holds an event it cannot read', async () => {
    const orderId = await placedOrder();
    // A buggy producer wrote into the order's stream: every load of it fails the same way.
    await env.store.appendToStream(
      orderStream(orderId),
      [{ id: randomUUID(), type: 'OrderTeleported', data: { orderId } }],
      { expectedRevision: 'any' },
    );
    const { event, recorded } = await publish(
      env.store,
      inventoryStream(orderId),
      inventoryReserved(orderId),
    );

    const failure = await handleOrderSagaEvent(env, event, recorded).catch(
      (error: unknown) => error,
    );

    if (!(failure instanceof ConsumerFailure)) throw new Error('expected a ConsumerFailure');
    expect(failure.kind).toBe('terminal');
    expect(failure.reason).toContain(`order-${orderId}@1 holds`);
    expect(failure.reason).toContain('OrderTeleported');
  });

  it('ignores PaymentCaptured without a transaction: a confirmed order has nothing left to decide', async () => {
    const orderId = await placedOrder();
    const { event, recorded } = await publish(env.store, paymentStream(orderId), {
      type: 'PaymentCaptured',
      data: {
        orderId,
        paymentAttemptId: `${orderId}:1`,
        authorizationId: 'auth-1',
        amountCents: 3_000,
        capturedAt: new Date().toISOString(),
      },
    });

    const result = await handleOrderSagaEvent(env, event, recorded);

    expect(result).toEqual({ outcome: 'ignored' });
    const markers = await env.db
      .selectFrom('processed_message')
      .selectAll()
      .where('message_id', '=', recorded.id)
      .execute();
    expect(markers).toEqual([]);
  });
});
