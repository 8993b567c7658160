// startConsumer against the real embedded event store: what each kind of
// delivery becomes (acked, parked, redelivered), counted and logged, and a
// close that lets the work in flight finish.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import {
  EventStoreUnavailableError,
  type EventStore,
  type JsonValue,
} from '@effectively-once/event-store';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import {
  defineConsumer,
  findMarker,
  processOnce,
  retryableFailure,
} from '@effectively-once/idempotency';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '@effectively-once/event-store/testing';
import { createServiceMetrics, type ServiceMetrics } from '../metrics/service-metrics.js';
import {
  appendToOrder,
  consumerFixture,
  groupMessages as groupMessagesOf,
  orderConfirmed,
  orderPlaced,
  settledLine,
} from '../testing/consumer-fixtures.js';
import { recordingLogger } from '../testing/recording-logger.js';
import type { HandleResult } from './handler.js';
import { startConsumer } from './start-consumer.js';

const { url, db, store } = await consumerFixture();

const append = (orderId: string, events: { type: string; data: JsonValue }[]) =>
  appendToOrder(store, orderId, events);
const groupMessages = (group: string) => groupMessagesOf(db, group);

/** The handler a service would write: OrderPlaced runs once through processOnce, the rest is ignored. */
function placeOrderHandler(metrics: ServiceMetrics, consumer: string, fail?: () => void) {
  const definition = defineConsumer({ name: consumer });
  return async (
    event: { type: string },
    recorded: { id: string; type: string },
  ): Promise<HandleResult> => {
    if (event.type !== 'OrderPlaced') return { outcome: 'ignored' };
    return processOnce({
      db,
      consumer: definition,
      message: { id: recorded.id, type: recorded.type },
      onOutcome: metrics.consumerOutcome,
      work: () => {
        fail?.();
        return Promise.resolve('reserved');
      },
    });
  };
}

async function messagesCounted(metrics: ServiceMetrics, outcome: string): Promise<number> {
  const metric = metrics.registry.getSingleMetric('eo_consumer_messages_total');
  const { values } = (await metric?.get()) ?? { values: [] };
  return values
    .filter((value) => value.labels['outcome'] === outcome)
    .reduce((sum, value) => sum + value.value, 0);
}

describe('startConsumer', () => {
  it('acks an applied and an ignored event, and logs each without its payload', async () => {
    // Given a consumer of one order's stream
    const orderId = randomUUID();
    const consumer = 'kit-applied-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: placeOrderHandler(metrics, consumer),
      metrics,
      log,
    });
    try {
      // When an event it handles and one it ignores arrive
      const [placed, confirmed] = await append(orderId, [
        orderPlaced(orderId),
        orderConfirmed(orderId),
      ]);
      const appliedLine = await waitFor(
        settledLine(placed!, 'delivery acknowledged'),
        'placed acked',
      );
      const ignoredLine = await waitFor(
        settledLine(confirmed!, 'delivery acknowledged'),
        'confirmed acked',
      );

      // Then both are acknowledged: one applied under a marker, one ignored without
      expect(appliedLine).toMatchObject({
        consumer,
        eventType: 'OrderPlaced',
        streamName: orderStream(orderId),
        orderId,
        traceId: orderId,
        outcome: 'applied',
        retryCount: 0,
      });
      expect(ignoredLine).toMatchObject({ eventType: 'OrderConfirmed', outcome: 'ignored' });
      expect(JSON.stringify([appliedLine, ignoredLine])).not.toContain('ada@example.com');
      expect(await findMarker(db, consumer, placed!)).toBeDefined();
      expect(await findMarker(db, consumer, confirmed!)).toBeUndefined();
      expect(await groupMessages(consumer)).toEqual([]);
      expect(await messagesCounted(metrics, 'applied')).toBe(1);
      expect(await messagesCounted(metrics, 'ignored')).toBe(1);
    } finally {
      await running.close();
    }
  });

  it('parks an unknown event type and an invalid payload with their reasons, without calling the handler', async () => {
    // Given a consumer whose handler must never see a contract violation
    const orderId = randomUUID();
    const consumer = 'kit-parked-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    const handled: string[] = [];
    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: (event) => {
        handled.push(event.type);
        return Promise.resolve({ outcome: 'ignored' });
      },
      metrics,
      log,
    });
    try {
      // When an event of no contract and one whose payload breaks its contract arrive
      const [unknown, invalid] = await append(orderId, [
        { type: 'OrderTeleported', data: { orderId } },
        { type: 'OrderPlaced', data: { orderId: 'not-a-uuid' } },
      ]);
      await waitFor(settledLine(unknown!, 'delivery parked'), 'unknown type parked');
      await waitFor(settledLine(invalid!, 'delivery parked'), 'invalid payload parked');

      // Then both are parked with the rule they broke
      const parked = await store.listParkedMessages(consumer);
      expect(parked.map((message) => message.event.id)).toEqual([unknown, invalid]);
      expect(parked[0]?.reason).toMatch(/UNKNOWN_EVENT_TYPE.*OrderTeleported/);
      expect(parked[1]?.reason).toMatch(/INVALID_PAYLOAD.*orderId/);
      expect(parked[1]?.reason).not.toContain('not-a-uuid');
      expect(handled).toEqual([]);
      expect(await messagesCounted(metrics, 'terminal_failure')).toBe(2);
    } finally {
      await running.close();
    }
  });

  it('hands a retryable failure back, and applies the redelivery', async () => {
    // Given a handler whose first transaction fails with a retryable error
    const orderId = randomUUID();
    const consumer = 'kit-retry-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    let attempts = 0;
    const failOnce = () => {
      attempts++;
      if (attempts === 1) throw retryableFailure('the database is restarting');
    };
    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: placeOrderHandler(metrics, consumer, failOnce),
      metrics,
      log,
    });
    try {
      // When the event arrives
      const [placed] = await append(orderId, [orderPlaced(orderId)]);

      // Then the first delivery is handed back and the second one is applied
      const retried = await waitFor(
        settledLine(placed!, 'delivery handed back for retry'),
        'retry',
      );
      const applied = await waitFor(settledLine(placed!, 'delivery acknowledged'), 'applied');
      expect(retried).toMatchObject({
        outcome: 'retryable_failure',
        retryCount: 0,
        reason: 'the database is restarting',
      });
      expect(applied).toMatchObject({ outcome: 'applied', retryCount: 1 });
      expect(await findMarker(db, consumer, placed!)).toBeDefined();
      // Counted once each, by processOnce's report, not again by the loop.
      expect(await messagesCounted(metrics, 'retryable_failure')).toBe(1);
      expect(await messagesCounted(metrics, 'applied')).toBe(1);
    } finally {
      await running.close();
    }
  });

  it('handles up to `concurrency` deliveries at once', async () => {
    // Given a handler that holds every delivery until released, and concurrency 2
    const orderId = randomUUID();
    const consumer = 'kit-concurrency-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    let running = 0;
    let most = 0;
    let twoEntered!: () => void;
    const bothHeld = new Promise<void>((resolve) => (twoEntered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const consumerLoop = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      concurrency: 2,
      handle: async () => {
        running++;
        most = Math.max(most, running);
        if (running === 2) twoEntered();
        await released;
        running--;
        return { outcome: 'ignored' };
      },
      metrics,
      log,
    });
    try {
      // When three events arrive
      const ids = await append(orderId, [
        orderConfirmed(orderId),
        orderConfirmed(orderId),
        orderConfirmed(orderId),
      ]);

      // Then two are handled side by side, and all three once released
      await bothHeld;
      release();
      for (const id of ids) await waitFor(settledLine(id, 'delivery acknowledged'), `ack of ${id}`);
      expect(most).toBe(2);
    } finally {
      release();
      await consumerLoop.close();
    }
  });

  it('asks for its next delivery while every slot is busy, and is leased it only once one frees', async () => {
    // Given a handler that holds every delivery until released, concurrency 1,
    // and a store whose limit would lease one more than that, counting how
    // often the consumer asks for a delivery and how many it got
    const orderId = randomUUID();
    const consumer = 'kit-next-while-busy-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    let asked = 0;
    let got = 0;
    const countingStore: EventStore = {
      ...store,
      subscribeToGroup: (group, options) => {
        const subscription = store.subscribeToGroup(group, {
          ...options,
          maxInFlight: (options?.maxInFlight ?? 1) + 1,
        });
        return {
          [Symbol.asyncIterator]: () => {
            const iterator = subscription[Symbol.asyncIterator]();
            return {
              next: async () => {
                asked++;
                const result = await iterator.next();
                if (result.done !== true) got++;
                return result;
              },
              return: () =>
                iterator.return?.() ?? Promise.resolve({ done: true, value: undefined }),
            };
          },
          close: () => subscription.close(),
        };
      },
    };
    let entered = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const consumerLoop = startConsumer({
      store: countingStore,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      concurrency: 1,
      handle: async () => {
        entered++;
        await released;
        return { outcome: 'ignored' };
      },
      metrics,
      log,
    });
    try {
      // When two events arrive and the first is held
      const ids = await append(orderId, [orderConfirmed(orderId), orderConfirmed(orderId)]);
      await waitUntil(() => (entered === 1 ? true : undefined), 'the first delivery handled');

      // Then the consumer has asked for the second while the slot is busy (so
      // the store waits for the slot in its loop, where the first's ack rides
      // with the next lease), but the store leased it nothing it could not
      // start: the second was never delivered, and stays free for another
      // consumer of the group (ADR 0040)
      await waitUntil(() => (asked === 2 ? true : undefined), 'the second asked for');
      const deliveries = (await groupMessages(consumer)).map((message) => message.deliveries);
      expect(deliveries.sort()).toEqual([0, 1]);
      expect({ got, entered }).toEqual({ got: 1, entered: 1 });
      release();
      for (const id of ids) await waitFor(settledLine(id, 'delivery acknowledged'), `ack of ${id}`);
      expect(entered).toBe(2);
    } finally {
      release();
      await consumerLoop.close();
    }
  });

  it('subscribes again, after a backoff, when its subscription fails', async () => {
    // Given a store whose first subscription breaks, as a lost connection would
    const orderId = randomUUID();
    const consumer = 'kit-reconnect-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    let subscriptions = 0;
    const flakyStore: EventStore = {
      ...store,
      subscribeToGroup: (group, options) => {
        subscriptions++;
        if (subscriptions > 1) return store.subscribeToGroup(group, options);
        return {
          [Symbol.asyncIterator]: () => ({
            next: () => Promise.reject(new EventStoreUnavailableError('connection lost')),
          }),
          close: () => Promise.resolve(),
        };
      },
    };
    const running = startConsumer({
      store: flakyStore,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: placeOrderHandler(metrics, consumer),
      metrics,
      log,
    });
    try {
      // When an event arrives
      const [placed] = await append(orderId, [orderPlaced(orderId)]);

      // Then the failure is logged, and the next subscription applies the event
      const failed = await waitFor(
        (line) => line.msg === 'subscription failed; reconnecting',
        'failure',
      );
      await waitFor(settledLine(placed!, 'delivery acknowledged'), 'applied after reconnecting');
      expect(failed).toMatchObject({ consumer, failures: 1 });
      expect(subscriptions).toBe(2);
    } finally {
      await running.close();
    }
  });

  it('closes only after the delivery in flight has settled, keeping its subscription open meanwhile', async () => {
    // Given a handler held inside its work, released only once the consumer's
    // subscription has looked for events twice after close() began: a close
    // that gave the subscription back first would never release it.
    const orderId = randomUUID();
    const consumer = 'kit-close-v1';
    let closeStarted = false;
    let pumpsSinceClose = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const closingStore = createPostgresEventStore({
      url,
      pollIntervalMs: 50,
      onGroupPumped: (group) => {
        if (group === consumer && closeStarted && ++pumpsSinceClose === 2) release();
      },
    });
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log } = recordingLogger();
    const steps: string[] = [];
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    const apply = placeOrderHandler(metrics, consumer);
    const running = startConsumer({
      store: closingStore,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: async (event, recorded) => {
        entered();
        await released;
        const result = await apply(event, recorded);
        steps.push('handler finished');
        return result;
      },
      metrics,
      log,
    });
    try {
      const [placed] = await append(orderId, [orderPlaced(orderId)]);
      await handlerEntered;
      const oldest = await metrics.registry
        .getSingleMetric('eo_consumer_oldest_unacked_delivery_seconds')
        ?.get();
      expect(oldest?.values.map((value) => value.labels)).toEqual([{ consumer }]);
      expect(oldest?.values[0]?.value).toBeGreaterThan(0);

      // When the consumer is closed while the handler still works
      closeStarted = true;
      await running.close();
      steps.push('consumer closed');

      // Then close waited for the handler, and its delivery was acknowledged, not handed back
      expect(steps).toEqual(['handler finished', 'consumer closed']);
      expect(await groupMessages(consumer)).toEqual([]);
      expect(await findMarker(db, consumer, placed!)).toBeDefined();
    } finally {
      release();
      await closingStore.close();
    }
  });
});
