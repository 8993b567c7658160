// startConsumer's `compensations` against the real embedded store: a listed
// type's retryable failures never use up maxRetryCount, an unlisted one's do.
// OrderPlaced stands in for a compensation: the kit knows types, not meanings.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import {
  defineConsumer,
  findMarker,
  processOnce,
  retryableFailure,
} from '@effectively-once/idempotency';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import {
  appendToOrder,
  consumerFixture,
  groupMessages,
  orderPlaced,
  settledLine,
} from '../testing/consumer-fixtures.js';
import { recordingLogger } from '../testing/recording-logger.js';
import type { ConsumerHandler, DeliveryAttempt } from './handler.js';
import { startConsumer } from './start-consumer.js';

const { db, store } = await consumerFixture();
const MAX_RETRY_COUNT = 1;

/** A handler whose work fails retryably `failures` times, then applies; it records what it was told. */
function failingThenApplying(consumer: string, failures: number) {
  const definition = defineConsumer({ name: consumer });
  const attempts: DeliveryAttempt[] = [];
  const handle: ConsumerHandler = (_event, recorded, attempt) => {
    attempts.push(attempt);
    return processOnce({
      db,
      consumer: definition,
      message: { id: recorded.id, type: recorded.type },
      work: () => {
        if (attempts.length <= failures) throw retryableFailure('provider unavailable');
        return Promise.resolve('released');
      },
    });
  };
  return { handle, attempts };
}

function start(
  input: { consumer: string; orderId: string; handle: ConsumerHandler },
  listed: boolean,
) {
  const { log, waitFor } = recordingLogger();
  const running = startConsumer({
    store,
    consumer: input.consumer,
    streamPrefixes: [orderStream(input.orderId)],
    handle: input.handle,
    compensations: listed ? ['OrderPlaced'] : [],
    groupSettings: { maxRetryCount: MAX_RETRY_COUNT },
    metrics: createServiceMetrics({ service: 'kit' }),
    log,
  });
  return { running, waitFor };
}

describe('startConsumer with compensations', () => {
  beforeEach(() => {
    // Every backoff drawn as 0, so the test need not sit out waits of up to 5 s.
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('retries a listed type past maxRetryCount until it succeeds: applied once, never parked', async () => {
    // Given a compensation that fails three times on a group that parks after one retry
    const orderId = randomUUID();
    const consumer = 'kit-compensation-v1';
    const { handle, attempts } = failingThenApplying(consumer, 3);
    const { running, waitFor } = start({ consumer, orderId, handle }, true);
    try {
      // When it arrives
      const [placed] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);

      // Then the fourth delivery applies it, still as the first retry count
      await waitFor(settledLine(placed!, 'delivery acknowledged'), 'applied at last');
      expect(attempts).toEqual(Array(4).fill({ retryCount: 0, maxRetryCount: MAX_RETRY_COUNT }));
      expect(await findMarker(db, consumer, placed!)).toBeDefined();
      expect(await groupMessages(db, consumer)).toEqual([]);
      expect(await store.listParkedMessages(consumer)).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it('refuses at start a compensation its group never receives', () => {
    const { handle } = failingThenApplying('kit-misnamed-v1', 0);
    const { log } = recordingLogger();
    expect(() =>
      startConsumer({
        store,
        consumer: 'kit-misnamed-v1',
        eventTypes: ['OrderPlaced'],
        compensations: ['OrderCancelled'],
        handle,
        metrics: createServiceMetrics({ service: 'kit' }),
        log,
      }),
    ).toThrow(/OrderCancelled are not among its eventTypes/);
  });

  it('parks an unlisted type once its retries are used up, as before', async () => {
    // Given the same failures for a type that is not a compensation
    const orderId = randomUUID();
    const consumer = 'kit-ordinary-v1';
    const { handle, attempts } = failingThenApplying(consumer, 3);
    const { running, waitFor } = start({ consumer, orderId, handle }, false);
    try {
      // When it arrives
      const [placed] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);

      // Then its second failure, the last retry allowed, parks it, and it is never applied
      const handedBack = settledLine(placed!, 'delivery handed back for retry');
      await waitFor((line) => handedBack(line) && line['retryCount'] === 1, 'the last retry');
      const parked = await store.listParkedMessages(consumer);
      expect(parked.map((message) => message.event.id)).toEqual([placed]);
      expect(attempts.map((attempt) => attempt.retryCount)).toEqual([0, 1]);
      expect(await findMarker(db, consumer, placed!)).toBeUndefined();
    } finally {
      await running.close();
    }
  });
});
