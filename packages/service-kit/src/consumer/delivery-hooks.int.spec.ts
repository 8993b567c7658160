// startConsumer with delivery hooks (as the failure lab installs them),
// against the real embedded event store: a postponed delivery comes again, a
// hand-back after commit comes again as a duplicate, and a flow the hooks
// choose runs instead of handle-then-ack. Each settlement reaches the hooks'
// journal.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import {
  activeProcessingHooks,
  defineConsumer,
  findMarker,
  processOnce,
} from '@effectively-once/idempotency';
import { describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import {
  appendToOrder,
  consumerFixture,
  groupMessages,
  orderPlaced,
  settledLine,
} from '../testing/consumer-fixtures.js';
import { recordingLogger } from '../testing/recording-logger.js';
import type { DeliveryFacts, DeliveryHooks, DeliverySettled } from './delivery-hooks.js';
import { handleThenAck } from './handle-then-ack.js';
import type { HandleResult } from './handler.js';
import { startConsumer, type StartConsumerInput } from './start-consumer.js';

const { db, store } = await consumerFixture();

interface Journaled {
  facts: DeliveryFacts;
  settled: DeliverySettled;
}

/**
 * Hooks that process everything unless told otherwise, and journal each
 * settlement where the test can wait for it.
 */
function recordingHooks(overrides: Partial<DeliveryHooks> = {}) {
  const journal: Journaled[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const hooks: DeliveryHooks = {
    reached: () => Promise.resolve(),
    onDelivery: () => Promise.resolve('process'),
    afterCommit: () => Promise.resolve('ack'),
    settled: (facts, settled) => {
      journal.push({ facts, settled });
      for (const waiter of waiters.filter((w) => w.count <= journal.length)) waiter.resolve();
      return Promise.resolve();
    },
    ...overrides,
  };
  const journaled = (count: number) =>
    journal.length >= count
      ? Promise.resolve(journal)
      : new Promise<Journaled[]>((resolve) =>
          waiters.push({ count, resolve: () => resolve(journal) }),
        );
  return { hooks, journal, journaled };
}

/** OrderPlaced through processOnce (noting the hooks it runs under), the rest ignored. */
function placeOrderHandler(consumer: string, work: () => void = () => undefined) {
  const definition = defineConsumer({ name: consumer });
  const hooksSeen: unknown[] = [];
  const handle = async (
    event: { type: string },
    recorded: { id: string; type: string },
  ): Promise<HandleResult> => {
    hooksSeen.push(activeProcessingHooks());
    if (event.type !== 'OrderPlaced') return { outcome: 'ignored' };
    return processOnce({
      db,
      consumer: definition,
      message: { id: recorded.id, type: recorded.type },
      work: () => {
        work();
        return Promise.resolve('reserved');
      },
    });
  };
  return { handle, hooksSeen };
}

function startHooked(
  input: Pick<StartConsumerInput, 'consumer' | 'handle' | 'hooks'> & { orderId: string },
) {
  const { log, waitFor } = recordingLogger();
  const running = startConsumer({
    store,
    consumer: input.consumer,
    streamPrefixes: [orderStream(input.orderId)],
    concurrency: 1,
    handle: input.handle,
    hooks: input.hooks,
    metrics: createServiceMetrics({ service: 'kit' }),
    log,
  });
  return { running, waitFor };
}

describe('startConsumer with delivery hooks', () => {
  it('hands a postponed delivery back unhandled, and handles it when it comes again', async () => {
    // Given hooks that postpone the first delivery of every message
    const orderId = randomUUID();
    const consumer = 'kit-hooks-postpone-v1';
    const { hooks, journaled } = recordingHooks({
      onDelivery: (facts) => Promise.resolve(facts.retryCount === 0 ? 'postpone' : 'process'),
    });
    const handler = placeOrderHandler(consumer);
    const { running, waitFor } = startHooked({ consumer, orderId, hooks, ...handler });
    try {
      // When an order is placed
      const [placed] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);

      // Then the first delivery is handed back without running the handler, and the second applies it
      const [first, second] = await journaled(2);
      expect(first).toEqual({
        facts: {
          consumer,
          messageId: placed,
          eventType: 'OrderPlaced',
          streamName: orderStream(orderId),
          revision: '0',
          retryCount: 0,
          orderId,
        },
        settled: {
          action: 'retry',
          outcome: 'retryable_failure',
          reason: 'postponed by the delivery hooks before the handler',
        },
      });
      expect(second).toMatchObject({
        facts: { messageId: placed, retryCount: 1 },
        settled: { action: 'ack', outcome: 'applied', attempts: 1 },
      });
      await waitFor(settledLine(placed!, 'delivery acknowledged'), 'acked after the postpone');
      expect(handler.hooksSeen).toEqual([hooks]);
      expect(await findMarker(db, consumer, placed!)).toBeDefined();
    } finally {
      await running.close();
    }
  });

  it('hands back a committed delivery instead of acking it, so it comes again as a duplicate', async () => {
    // Given hooks that redeliver at after-commit-before-ack, once
    const orderId = randomUUID();
    const consumer = 'kit-hooks-redeliver-v1';
    const { hooks, journaled } = recordingHooks({
      afterCommit: (facts) => Promise.resolve(facts.retryCount === 0 ? 'redeliver' : 'ack'),
    });
    const { running, waitFor } = startHooked({
      consumer,
      orderId,
      hooks,
      ...placeOrderHandler(consumer),
    });
    try {
      // When an order is placed
      const [placed] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);

      // Then the applied delivery is handed back, and its redelivery is a duplicate
      const [first, second] = await journaled(2);
      expect(first?.settled).toEqual({
        action: 'retry',
        outcome: 'applied',
        attempts: 1,
        reason: 'handed back by the delivery hooks after the commit, before the ack',
      });
      expect(second?.settled).toEqual({ action: 'ack', outcome: 'duplicate', attempts: 1 });
      const handedBack = await waitFor(
        settledLine(placed!, 'delivery handed back for retry'),
        'hand-back',
      );
      expect(handedBack).toMatchObject({ outcome: 'applied', retryCount: 0 });
      expect(await groupMessages(db, consumer)).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it('runs the flow the hooks choose for a consumer instead of handle-then-ack', async () => {
    // Given hooks that choose, for this consumer only, a flow that notes each delivery it runs
    const orderId = randomUUID();
    const consumer = 'kit-hooks-chosen-flow-v1';
    const ranBy: string[] = [];
    const { hooks, journaled } = recordingHooks({
      flowFor: (facts) =>
        facts.consumer === consumer
          ? (run) => {
              ranBy.push(facts.messageId);
              return handleThenAck(run);
            }
          : undefined,
    });
    const handler = placeOrderHandler(consumer);
    const { running, waitFor } = startHooked({ consumer, orderId, hooks, ...handler });
    try {
      // When an order is placed
      const [placed] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);
      await waitFor(settledLine(placed!, 'delivery acknowledged'), 'the ack');

      // Then the chosen flow ran the delivery, and its settlement reached the journal
      expect(ranBy).toEqual([placed]);
      const [first] = await journaled(1);
      expect(first?.settled).toMatchObject({ action: 'ack', outcome: 'applied' });
    } finally {
      await running.close();
    }
  });

  it('acks the delivery even when the journal fails, and logs that failure', async () => {
    // Given hooks whose journal is unreachable
    const orderId = randomUUID();
    const consumer = 'kit-hooks-journal-v1';
    const { hooks } = recordingHooks({
      settled: () => Promise.reject(new Error('lab_journal is unreachable')),
    });
    const { running, waitFor } = startHooked({
      consumer,
      orderId,
      hooks,
      ...placeOrderHandler(consumer),
    });
    try {
      // When an order is placed
      const [placed] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);

      // Then the delivery is settled as without the lab, and the journal's failure is logged
      await waitFor(settledLine(placed!, 'delivery acknowledged'), 'acked');
      const warning = await waitFor(
        settledLine(placed!, 'the delivery hooks could not hear the settlement'),
        'journal failure',
      );
      expect(warning['err']).toMatchObject({ message: 'lab_journal is unreachable' });
      expect(await groupMessages(db, consumer)).toEqual([]);
      expect(await findMarker(db, consumer, placed!)).toBeDefined();
    } finally {
      await running.close();
    }
  });
});
