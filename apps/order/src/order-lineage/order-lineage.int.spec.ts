// The order service's GET /lineage/:orderId against its real database, built
// from what server.ts declares to runService (its timers and its consumer): an
// order placed through POST /orders reports its three deadline timers, and
// the saga consumer's marker of a message it processed; a timer that kept
// failing shows parked, with its reason.
import { randomUUID } from 'node:crypto';
import { CONSUMERS, ServiceLineage } from '@effectively-once/contracts';
import { markerView } from '@effectively-once/idempotency';
import { registerLineageRoute } from '@effectively-once/service-kit/lineage';
import { describe, expect, it } from 'vitest';
import {
  capturingLogger,
  foreignEventAppended,
  passesOnAClockRunningAhead,
  placedWithTimers,
  timerRow,
} from '../deadline-timer/deadline-timer.fixtures.js';
import { TIMER_MAX_FAILED_ATTEMPTS } from '../deadline-timer/timer-retry.js';
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
      {
        name: 'inventory',
        dueAt: deadlines.inventoryBy,
        firedAt: null,
        nextAttemptAt: deadlines.inventoryBy,
        failedAttempts: 0,
        lastError: null,
        parkedAt: null,
      },
      {
        name: 'payment',
        dueAt: deadlines.paymentBy,
        firedAt: null,
        nextAttemptAt: deadlines.paymentBy,
        failedAttempts: 0,
        lastError: null,
        parkedAt: null,
      },
      {
        name: 'complete',
        dueAt: deadlines.completeBy,
        firedAt: null,
        nextAttemptAt: deadlines.completeBy,
        failedAttempts: 0,
        lastError: null,
        parkedAt: null,
      },
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

  it('reports a timer that kept failing as parked, with its reason', async () => {
    // Given an order whose stream the order service cannot read, and its timer run past every backoff
    const orderId = await placedWithTimers(env, 10 * 60_000);
    await foreignEventAppended(env, orderId);
    const { log } = capturingLogger();
    await passesOnAClockRunningAhead(
      { db: env.db, store: env.store, now: () => new Date(), log },
      {
        passes: TIMER_MAX_FAILED_ATTEMPTS + 5,
        stepMs: 10 * 60_000,
        done: async () => (await timerRow(env, orderId, 'inventory')).parked_at !== null,
      },
    );

    // When its lineage is asked of the order service
    const response = await env.app.inject({ method: 'GET', url: `/lineage/${orderId}` });

    // Then its inventory timer is parked, with the error that parked it and no next attempt
    const lineage = ServiceLineage.parse(response.json());
    expect(lineage.timers.find((timer) => timer.name === 'inventory')).toMatchObject({
      firedAt: null,
      nextAttemptAt: null,
      failedAttempts: TIMER_MAX_FAILED_ATTEMPTS,
      lastError: expect.stringMatching(/^UnreadableOrderStreamError: .*SomethingForeign/) as string,
      parkedAt: expect.any(String) as string,
    });
  });
});
