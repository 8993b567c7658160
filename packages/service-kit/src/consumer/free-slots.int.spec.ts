// A batching consumer against the real embedded store, with messages ready
// and slots free: what the free slots can start, they start (ADR 0045). A
// batch's messages run one after another and are acked after its one COMMIT,
// so a message put in a batch while a slot stood free waits for its
// batch-mates' work for nothing.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
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

const { store } = await consumerFixture();

/** A handler that holds the first message it is given until released, and notes what each found on starting. */
function holdingHandler() {
  const started: { messageId: string; firstHeld: boolean }[] = [];
  let firstHeld = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const handle: ConsumerHandler = async (_event, recorded) => {
    started.push({ messageId: recorded.id, firstHeld });
    if (started.length === 1) {
      firstHeld = true;
      await released;
      firstHeld = false;
    }
    return { outcome: 'ignored' };
  };
  return { handle, started, release };
}

describe('a batching consumer with two messages ready and two slots free', () => {
  it('starts the second in the other slot while the first is held, not behind it in one batch', async () => {
    // Given two messages waiting before the consumer starts (one round leases both)
    const orderId = randomUUID();
    const [first, second] = await appendToOrder(store, orderId, [
      orderConfirmed(orderId),
      orderConfirmed(orderId),
    ]);
    const held = holdingHandler();
    const { log, lines, waitFor } = recordingLogger();

    // When a consumer with two slots and batches of 16 takes them, holding the first
    const running = startConsumer({
      store,
      consumer: 'kit-free-slots-v1',
      streamPrefixes: [orderStream(orderId)],
      handle: held.handle,
      concurrency: 2,
      batchSize: 16,
      metrics: createServiceMetrics({ service: 'kit' }),
      log,
    });
    try {
      // Then the second is handled and acked while the first is still held
      await waitFor(
        settledLine(second!, 'delivery acknowledged'),
        'the second acked while the first is held',
      );
      expect(held.started).toEqual([
        { messageId: first, firstHeld: false },
        { messageId: second, firstHeld: true },
      ]);
      held.release();
      await waitFor(settledLine(first!, 'delivery acknowledged'), 'the first acked');
      // And neither shared a batch's transaction
      const acked = lines.filter((line) => line.msg === 'delivery acknowledged');
      expect(acked.filter((line) => line['batched'] === true)).toHaveLength(0);
    } finally {
      held.release();
      await running.close();
    }
  });
});
