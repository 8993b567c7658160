// The saga's paths end to end within the order service: events of the other
// services in, the order's status and stream out.
import {
  inventoryStream,
  orderStream,
  paymentStream,
  type KnownEvent,
} from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { describe, expect, it } from 'vitest';
import {
  inventoryRejected,
  inventoryReleased,
  inventoryReserved,
  orderPlaced,
  paymentAuthorized,
  paymentDeclined,
  paymentNothingToVoid,
  paymentUnavailable,
  paymentVoided,
} from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv, publish } from '../testing/order-test-env.js';
import { appendOrderEvents, loadOrder, orderEventId } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { handleOrderSagaEvent } from './order-saga.handler.js';

const env = await createOrderTestEnv();
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

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

/** Publishes the event on its service's stream and delivers it to the saga once. */
async function deliver(streamName: string, input: KnownEvent) {
  const { event, recorded } = await publish(env.store, streamName, input, {
    traceparent: TRACEPARENT,
  });
  await handleOrderSagaEvent(env, event, recorded);
  return recorded;
}

const statusOf = async (orderId: string) => (await loadOrder(env.store, orderId)).state;

describe('the order saga', () => {
  it('confirms an order whose stock is reserved and whose payment is authorized', async () => {
    const orderId = await placedOrder();

    await deliver(inventoryStream(orderId), inventoryReserved(orderId));
    expect(await statusOf(orderId)).toMatchObject({ status: 'awaiting_payment' });
    await deliver(paymentStream(orderId), paymentAuthorized(orderId));

    expect(await statusOf(orderId)).toMatchObject({
      status: 'confirmed',
      authorizationId: 'auth-1',
    });
  });

  it('cancels an order whose payment is declined once its stock is released and its card settled', async () => {
    const orderId = await placedOrder();
    await deliver(inventoryStream(orderId), inventoryReserved(orderId));

    await deliver(paymentStream(orderId), paymentDeclined(orderId));
    expect(await statusOf(orderId)).toMatchObject({
      status: 'cancelling',
      cancellationReason: 'payment_declined',
    });
    await deliver(inventoryStream(orderId), inventoryReleased(orderId));
    // Stock is back, but until payment says nothing is held the order is not cancelled.
    expect(await statusOf(orderId)).toMatchObject({ status: 'cancelling' });
    await deliver(paymentStream(orderId), paymentNothingToVoid(orderId));

    expect(await statusOf(orderId)).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'payment_declined',
    });
  });

  it('cancels a cancelling order whichever compensation comes last: the void first, the stock second', async () => {
    const orderId = await placedOrder();
    await deliver(inventoryStream(orderId), inventoryReserved(orderId));
    await deliver(paymentStream(orderId), paymentUnavailable(orderId));

    await deliver(paymentStream(orderId), paymentVoided(orderId));
    expect(await statusOf(orderId)).toMatchObject({ status: 'cancelling' });
    await deliver(inventoryStream(orderId), inventoryReleased(orderId));

    expect(await statusOf(orderId)).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'payment_unavailable',
    });
  });

  it('cancels an order out of stock at once: nothing was reserved', async () => {
    const orderId = await placedOrder();

    await deliver(inventoryStream(orderId), inventoryRejected(orderId));

    expect(await statusOf(orderId)).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'out_of_stock',
    });
  });

  it("stamps each saga event with an id and causation from its trigger, and the trigger's trace", async () => {
    const orderId = await placedOrder();

    const trigger = await deliver(inventoryStream(orderId), inventoryReserved(orderId));

    const [, requested] = await env.store.readStream(orderStream(orderId));
    expect(requested).toMatchObject({
      id: orderEventId(trigger.id, 0),
      type: 'OrderPaymentRequested',
      metadata: {
        correlationId: orderId,
        causationId: trigger.id,
        traceparent: TRACEPARENT,
        schemaVersion: 1,
      },
    });
  });
});
