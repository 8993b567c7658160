// What a consumer leases against the real embedded store: only what it can
// start (ADR 0040). A message leased behind a busy slot would wait there, its
// lease running, while another consumer of the group had room for it.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import { waitUntil } from '@effectively-once/event-store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import {
  appendToOrder,
  consumerFixture,
  orderConfirmed,
  settledLine,
} from '../testing/consumer-fixtures.js';
import { recordingLogger } from '../testing/recording-logger.js';
import type { ConsumerHandler } from './handler.js';
import { startConsumer } from './start-consumer.js';

const { url, store } = await consumerFixture();
// The second consumer runs on a store of its own, as another process would.
const otherStore = createPostgresEventStore({ url, pollIntervalMs: 50 });
afterAll(() => otherStore.close());

/** A handler that notes each message it is given and, if asked, holds the first until released. */
function notingHandler(options: { holdFirst: boolean }) {
  const handled: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const handle: ConsumerHandler = async (_event, recorded) => {
    handled.push(recorded.id);
    if (options.holdFirst && handled.length === 1) await released;
    return { outcome: 'ignored' };
  };
  return { handle, handled, release };
}

describe('a consumer whose only slot is busy, batching on', () => {
  it('holds no lease on the messages behind it: another consumer of its group handles them meanwhile', async () => {
    // Given a consumer with one slot and batches of 16, holding its first message
    const orderId = randomUUID();
    const consumer = 'kit-lease-ahead-v1';
    const busy = notingHandler({ holdFirst: true });
    const subscription = { streamPrefixes: [orderStream(orderId)] };
    // Longer than the test waits: a lease that ran out would hand the messages over anyway.
    const groupSettings = { messageTimeoutMs: 60_000 };
    const busyLog = recordingLogger();
    const busyConsumer = startConsumer({
      store,
      consumer,
      ...subscription,
      groupSettings,
      handle: busy.handle,
      concurrency: 1,
      batchSize: 16,
      metrics: createServiceMetrics({ service: 'kit' }),
      log: busyLog.log,
    });
    const other = notingHandler({ holdFirst: false });
    const otherLog = recordingLogger();
    let otherConsumer: ReturnType<typeof startConsumer> | undefined;
    try {
      const [first] = await appendToOrder(store, orderId, [orderConfirmed(orderId)]);
      await waitUntil(() => (busy.handled.length === 1 ? true : undefined), 'the first held');

      // When three more messages arrive (they wake the busy consumer, the
      // group's only one), and then a second consumer of the group starts
      const later = await appendToOrder(store, orderId, [
        orderConfirmed(orderId),
        orderConfirmed(orderId),
        orderConfirmed(orderId),
      ]);
      otherConsumer = startConsumer({
        store: otherStore,
        consumer,
        ...subscription,
        groupSettings,
        handle: other.handle,
        concurrency: 1,
        batchSize: 16,
        metrics: createServiceMetrics({ service: 'kit' }),
        log: otherLog.log,
      });

      // Then the second consumer handles all three while the first still holds its message
      for (const id of later) {
        await otherLog.waitFor(
          settledLine(id, 'delivery acknowledged'),
          `${id} acked by the other`,
        );
      }
      expect(busy.handled).toEqual([first]);
      busy.release();
      await busyLog.waitFor(settledLine(first!, 'delivery acknowledged'), 'the held one acked');
      expect([...other.handled].sort()).toEqual([...later].sort());
    } finally {
      busy.release();
      await busyConsumer.close();
      await otherConsumer?.close();
    }
  });
});
