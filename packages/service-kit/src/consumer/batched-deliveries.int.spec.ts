// startConsumer with a backlog against the real embedded store, batching on
// and off (ADR 0036): the same settlements either way; on, the messages share
// a transaction, a failing one is handed back alone, and one ordering key is
// never in two places of one batch.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import {
  defineConsumer,
  findMarker,
  processOnce,
  retryableFailure,
} from '@effectively-once/idempotency';
import { sql } from 'kysely';
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
import type { DeliveryHooks } from './delivery-hooks.js';
import type { ConsumerHandler } from './handler.js';
import { startConsumer } from './start-consumer.js';

const { db, store } = await consumerFixture();

/** Which transaction each message's work ran in, in the order the work ran. */
interface WorkSeen {
  messageId: string;
  txid: string;
  streamName: string;
}

/** A handler whose work notes its transaction and fails while `fails` says so. */
function notingHandler(
  consumer: string,
  fails: (messageId: string, retryCount: number) => boolean,
) {
  const definition = defineConsumer({ name: consumer });
  const seen: WorkSeen[] = [];
  const handle: ConsumerHandler = (_event, recorded, attempt) =>
    processOnce({
      db,
      consumer: definition,
      message: { id: recorded.id, type: recorded.type },
      work: async (trx) => {
        const { rows } = await sql<{ txid: string }>`SELECT txid_current()::text AS txid`.execute(
          trx,
        );
        seen.push({ messageId: recorded.id, txid: rows[0]!.txid, streamName: recorded.streamName });
        if (fails(recorded.id, attempt.retryCount)) throw retryableFailure('not yet');
      },
    });
  return { handle, seen };
}

const placedTimes = (count: number, orderId: string) =>
  Array.from({ length: count }, () => orderPlaced(orderId));

/** Committed work: a message's last run (earlier ones failed and rolled back). */
function committedRuns(seen: readonly WorkSeen[]): Map<string, WorkSeen> {
  return new Map(seen.map((run) => [run.messageId, run]));
}

describe.each([
  { batching: 'on', batchSize: 16 },
  { batching: 'off', batchSize: 1 },
])('startConsumer with a backlog, batching $batching', ({ batching, batchSize }) => {
  it('a failing message in the middle is handed back alone; the others are acked once, applied once', async () => {
    // Given six events waiting before the consumer starts, the third failing on its first delivery
    const orderId = randomUUID();
    const consumer = `kit-batch-middle-${batching}-v1`;
    const ids = await appendToOrder(store, orderId, placedTimes(6, orderId));
    const failing = ids[2]!;
    const { handle, seen } = notingHandler(
      consumer,
      (id, retryCount) => id === failing && retryCount === 0,
    );
    const { log, lines, waitFor } = recordingLogger();

    // When the consumer runs, one batch (or delivery) at a time
    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle,
      concurrency: 1,
      batchSize,
      metrics: createServiceMetrics({ service: 'kit' }),
      log,
    });
    try {
      for (const id of ids) await waitFor(settledLine(id, 'delivery acknowledged'), `${id} acked`);

      // Then only the failing message was handed back, once, and every message is applied once
      const handedBack = lines.filter((line) => line.msg === 'delivery handed back for retry');
      expect(handedBack.map((line) => line['messageId'])).toEqual([failing]);
      for (const id of ids) expect(await findMarker(db, consumer, id)).toBeDefined();
      expect(await groupMessages(db, consumer)).toEqual([]);
      // On: the five others committed in one transaction; off: each in its own
      const others = [...committedRuns(seen).values()].filter((run) => run.messageId !== failing);
      expect(new Set(others.map((run) => run.txid)).size).toBe(batching === 'on' ? 1 : 5);
    } finally {
      await running.close();
    }
  });

  it('an ordering key: its messages run one after another, never in one transaction', async () => {
    // Given two orders' streams, three events each, waiting, ordered by stream
    const consumer = `kit-batch-ordered-${batching}-v1`;
    const orders = [randomUUID(), randomUUID()];
    const ids = [
      ...(await appendToOrder(store, orders[0]!, placedTimes(3, orders[0]!))),
      ...(await appendToOrder(store, orders[1]!, placedTimes(3, orders[1]!))),
    ];
    const { handle, seen } = notingHandler(consumer, () => false);
    const { log, waitFor } = recordingLogger();

    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: orders.map((orderId) => orderStream(orderId)),
      handle,
      orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
      batchSize,
      metrics: createServiceMetrics({ service: 'kit' }),
      log,
    });
    try {
      for (const id of ids) await waitFor(settledLine(id, 'delivery acknowledged'), `${id} acked`);

      // Then each stream's events ran in log order, each key's in transactions of their own
      orders.forEach((orderId, n) => {
        const runs = seen.filter((run) => run.streamName === orderStream(orderId));
        expect(runs.map((run) => run.messageId)).toEqual(ids.slice(3 * n, 3 * n + 3));
        expect(new Set(runs.map((run) => run.txid)).size).toBe(3);
      });
    } finally {
      await running.close();
    }
  });
});

describe('startConsumer with a backlog under delivery hooks (lab mode), batching on', () => {
  it('the messages share a transaction, each passes its points in it, and each after-commit point follows the one COMMIT', async () => {
    // Given three events waiting, and hooks as the failure lab installs them
    const orderId = randomUUID();
    const consumer = 'kit-batch-hooked-v1';
    const ids = await appendToOrder(store, orderId, placedTimes(3, orderId));
    const { handle, seen } = notingHandler(consumer, () => false);
    const points: { point: string; messageId: string }[] = [];
    const committedAtAfterCommit: boolean[] = [];
    const hooks: DeliveryHooks = {
      reached: (point, { message }) => {
        points.push({ point, messageId: message.id });
        return Promise.resolve();
      },
      onDelivery: () => Promise.resolve('process'),
      afterCommit: async () => {
        const markers = await Promise.all(ids.map((id) => findMarker(db, consumer, id)));
        committedAtAfterCommit.push(markers.every((marker) => marker !== undefined));
        return 'ack';
      },
      settled: () => Promise.resolve(),
    };
    const { log, lines, waitFor } = recordingLogger();

    // When the consumer runs with hooks and batching on
    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle,
      concurrency: 1,
      batchSize: 16,
      hooks,
      metrics: createServiceMetrics({ service: 'kit' }),
      log,
    });
    try {
      for (const id of ids) await waitFor(settledLine(id, 'delivery acknowledged'), `${id} acked`);

      // Then the three committed in one transaction, each past its three points there,
      expect(new Set(seen.map((run) => run.txid)).size).toBe(1);
      for (const id of ids) {
        expect(points.filter((p) => p.messageId === id).map((p) => p.point)).toEqual([
          'before-claim',
          'after-claim',
          'after-business',
        ]);
      }
      // and each after-commit point saw all three committed: the batch's COMMIT came first
      expect(committedAtAfterCommit).toEqual([true, true, true]);
      // and each settlement's log line says it was batched
      const acked = lines.filter((line) => line.msg === 'delivery acknowledged');
      expect(acked.map((line) => line['batched'])).toEqual([true, true, true]);
    } finally {
      await running.close();
    }
  });
});
