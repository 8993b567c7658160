// The order service's GET /lineage/:orderId against its real database, built
// from what server.ts declares to runService (its timers and its consumer): an
// order placed through POST /orders reports its three deadline timers, and
// the saga consumer's marker of a message it processed.
import { randomUUID } from 'node:crypto';
import { CONSUMERS, ServiceLineage } from '@effectively-once/contracts';
import { markerView } from '@effectively-once/idempotency';
import { registerLineageRoute } from '@effectively-once/service-kit/lineage';
import { describe, expect, it } from 'vitest';
import { orderSagaConsumer } from '../order-saga/order-saga.consumer.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { orderLineageTimers } from './order-lineage.timers.js';

const env = await createOrderTestEnv();
// As runService registers it: the declared consumers, the markers, the declared timers.
const { consumer, eventTypes } = orderSagaConsumer(env);
registerLineageRoute(env.app, {
  service: 'order',
  consumers: [{ consumer: consumer.name, eventTypes }],
  markers: markerView(env.db),
  timers: orderLineageTimers(env),
});

describe('GET /lineage/:orderId on the order service', () => {
  it('reports the timers of a placed order and the saga consumer with the types it receives', async () => {
    // Given an order placed through the API
    const placed = await env.app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        customerEmail: 'ada@example.com',
        items: [{ sku: 'SKU-LINEAGE', quantity: 1 }],
        paymentToken: 'tok_approve',
      },
    });
    expect(placed.statusCode).toBe(201);
    const { orderId, deadlines } = placed.json<{
      orderId: string;
      deadlines: { inventoryBy: string; paymentBy: string; completeBy: string };
    }>();

    // When its lineage is asked of the order service
    const response = await env.app.inject({ method: 'GET', url: `/lineage/${orderId}` });

    // Then its three timers are there, none fired, due when the order says
    expect(response.statusCode).toBe(200);
    const lineage = ServiceLineage.parse(response.json());
    expect(lineage.timers).toEqual([
      { name: 'inventory', dueAt: deadlines.inventoryBy, firedAt: null },
      { name: 'payment', dueAt: deadlines.paymentBy, firedAt: null },
      { name: 'complete', dueAt: deadlines.completeBy, firedAt: null },
    ]);
    expect(lineage.outbox).toEqual([]);
    expect(lineage.consumers).toEqual([
      {
        consumer: CONSUMERS.orderSaga,
        eventTypes: expect.arrayContaining(['InventoryReserved']) as string[],
      },
    ]);
  });

  it("reports the saga consumer's marker of a message of the order", async () => {
    // Given the saga consumer's marker of one message
    const [orderId, messageId] = [randomUUID(), randomUUID()];
    await env.db
      .insertInto('processed_message')
      .values({ consumer_name: CONSUMERS.orderSaga, message_id: messageId })
      .execute();

    // When the lineage is asked with that message's id
    const response = await env.app.inject({
      method: 'GET',
      url: `/lineage/${orderId}?messageIds=${messageId}`,
    });

    // Then the marker is reported
    const lineage = ServiceLineage.parse(response.json());
    expect(lineage.markers).toEqual([
      { consumer: CONSUMERS.orderSaga, messageId, processedAt: expect.any(String) as string },
    ]);
    expect(lineage.timers).toEqual([]);
  });
});
