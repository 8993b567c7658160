// A consumer whose PostgreSQL sessions the server ends (pg_terminate_backend:
// an operator, a pooler, a failover), the LISTEN session included: it must
// let the deliveries in flight settle, subscribe again on a new session and
// go on delivering, in the same process.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import type { EventStore } from '@effectively-once/event-store';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import {
  appendToOrder,
  consumerFixture,
  orderPlaced,
  settledLine,
} from '../testing/consumer-fixtures.js';
import { recordingLogger } from '../testing/recording-logger.js';
import { startConsumer } from './start-consumer.js';

const { db, store } = await consumerFixture();

/** The real store, with each subscription it opens and closes written down in `steps`. */
function recordingSubscriptions(steps: string[]): EventStore {
  return {
    ...store,
    subscribeToGroup: (group, options) => {
      const subscription = store.subscribeToGroup(group, options);
      steps.push('subscribed');
      return {
        [Symbol.asyncIterator]: () => subscription[Symbol.asyncIterator](),
        close: () => {
          steps.push('subscription closed');
          return subscription.close();
        },
      };
    },
  };
}

/** The pids of this database's sessions that carry `applicationName`. */
async function sessionsOf(applicationName: string): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = ${applicationName}`.execute(db);
  return rows.map((row) => row.pid);
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Nothing after ${String(timeoutMs)} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('startConsumer when the server ends its sessions', () => {
  it('subscribes again on a new LISTEN session and delivers what was appended after', async () => {
    // Given a consumer that holds its subscription
    const orderId = randomUUID();
    const consumer = 'kit-terminated-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: () => Promise.resolve({ outcome: 'applied', result: null, attempts: 1 }),
      metrics,
      log,
    });
    try {
      // The subscription opens its session on its first read, just after it is logged.
      const before = await until(async () => {
        const pids = await sessionsOf('event-store-consumer');
        return pids.length > 0 ? pids : undefined;
      });

      // When every session of the store but the test's own is terminated
      await sql`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()
           AND application_name LIKE 'event-store%'`.execute(db);
      await waitFor((line) => line.msg === 'subscription failed; reconnecting', 'failure seen');
      // The store's own pooled sessions were ended too, and an append may meet
      // one before the pool has dropped it: that append fails, the next goes through.
      const [placed] = await until(() =>
        appendToOrder(store, orderId, [orderPlaced(orderId)]).catch(() => undefined),
      );

      // Then the event is delivered and acknowledged on a new consumer session
      await waitFor(settledLine(placed!, 'delivery acknowledged'), 'delivered after the loss');
      // A pooled connection the server ended may fail one more round before the
      // pool drops it; the consumer then subscribes once more, so wait for its session.
      const after = await until(async () => {
        const pids = await sessionsOf('event-store-consumer');
        return pids.length > 0 ? pids : undefined;
      });
      expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it('lets the delivery in flight settle before it gives its subscription back and subscribes again', async () => {
    // Given a consumer whose handler is still working on a delivery
    const orderId = randomUUID();
    const consumer = 'kit-terminated-in-flight-v1';
    const metrics = createServiceMetrics({ service: 'kit' });
    const { log, waitFor } = recordingLogger();
    const steps: string[] = [];
    let entered = 0;
    let handlerEntered!: () => void;
    const inHandler = new Promise<void>((resolve) => (handlerEntered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const running = startConsumer({
      store: recordingSubscriptions(steps),
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: async () => {
        entered++;
        handlerEntered();
        await released;
        steps.push('handler settled');
        return { outcome: 'applied', result: null, attempts: 1 };
      },
      metrics,
      log,
      // The embedded store itself waits, up to the lease, for what it handed
      // out before its failed loop gives the leases back (docs/event-store.md):
      // a short lease lets the failure reach the consumer while the handler
      // still runs, which is the consumer's own wait this test is about.
      groupSettings: { messageTimeoutMs: 1_000 },
    });
    try {
      const [placed] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);
      await inHandler;

      // When the server ends the consumer's LISTEN session, and the handler
      // finishes only once the consumer has seen its subscription fail
      await sql`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'event-store-consumer'`.execute(
        db,
      );
      await waitFor((line) => line.msg === 'subscription failed; reconnecting', 'failure seen');
      release();

      // Then the subscription was given back, and a new one opened, only
      // after the handler settled; its delivery was acknowledged, handled once
      await waitFor(settledLine(placed!, 'delivery acknowledged'), 'the delivery acknowledged');
      await until(() => Promise.resolve(steps.length >= 4 ? steps : undefined));
      // A pooled session the first test ended may fail one more round, and
      // the consumer subscribes once more after that: only the first four count.
      expect(steps.slice(0, 4)).toEqual([
        'subscribed',
        'handler settled',
        'subscription closed',
        'subscribed',
      ]);
      expect(entered).toBe(1);
    } finally {
      release();
      await running.close();
    }
  });
});
