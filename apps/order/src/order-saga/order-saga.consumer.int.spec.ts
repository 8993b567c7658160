// The saga wired to its persistent subscription group, as server.ts runs it:
// an inventory event in the store moves the order on, with nobody calling the handler.
import { inventoryStream, orderStream } from '@effectively-once/contracts';
import { receive } from '@effectively-once/event-store/testing';
import { randomUUID } from 'node:crypto';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { inventoryReserved, orderPlaced } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv, publish } from '../testing/order-test-env.js';
import { appendOrderEvents } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { startOrderSaga } from './order-saga.consumer.js';

const env = await createOrderTestEnv();
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const saga = startOrderSaga({ deps: env, log: env.app.log });
afterAll(() => saga.close());

describe('startOrderSaga', () => {
  it('requests the payment once the inventory service reserved the stock', async () => {
    const orderId = randomUUID();
    const orderEvents = env.store.subscribeToAll({
      filter: { kind: 'stream_prefix', prefixes: [orderStream(orderId)] },
    });
    const received = receive(orderEvents);
    await appendOrderEvents(env.store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
      causeId: commandCause('PlaceOrder', orderId),
    });

    await publish(env.store, inventoryStream(orderId), inventoryReserved(orderId));

    const [placed, requested] = await received.atLeast(2);
    await orderEvents.close();
    expect([placed?.type, requested?.type]).toEqual(['OrderPlaced', 'OrderPaymentRequested']);
    // Closing waits for the delivery to settle, so its outcome has been counted.
    await saga.close();
    const metrics = await env.metrics.registry.metrics();
    expect(metrics).toMatch(
      /eo_consumer_messages_total\{[^}]*consumer="order-saga-v1"[^}]*outcome="applied"[^}]*\} 1/,
    );
  });
});
