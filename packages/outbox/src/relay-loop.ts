// The relay's working parts: draining the backlog batch by batch, and the
// loop that keeps doing it, waking on a notification, the poll interval or,
// after failures, a growing backoff.
import type { EventStore, Wakeup } from '@effectively-once/event-store';
import { describeError, OutboxPublishError } from './outbox-publish-error.js';
import { publishBatch, type AfterAppend } from './publish-batch.js';
import type { RelayLock, RelayLog } from './relay-lock.js';

const MAX_BACKOFF_MS = 10_000;

export interface Drain {
  /** false when another relay holds the lock. */
  drained: boolean;
  published: number;
}

/**
 * Batches until the backlog (up to `upTo`) is drained, or another relay
 * holds the lock.
 */
export async function publishUntilDrained(input: {
  lock: RelayLock;
  store: EventStore;
  batchSize: number;
  upTo: number | undefined;
  onPublished: ((count: number) => void) | undefined;
  afterAppend?: AfterAppend | undefined;
}): Promise<Drain> {
  const { lock, store, batchSize, upTo, afterAppend } = input;
  let published = 0;
  for (;;) {
    const batch = await lock.withLock((locked) =>
      publishBatch({ db: locked, store, limit: batchSize, upTo, afterAppend }),
    );
    if (batch === undefined) return { drained: false, published };
    published += batch.published;
    if (batch.published > 0) input.onPublished?.(batch.published);
    if (batch.failures.length > 0) throw new OutboxPublishError(batch.failures, published);
    if (batch.read < batchSize) return { drained: true, published };
  }
}

/** Exponential from the poll interval, capped: a store that is down is not hammered. */
function backoffMs(pollIntervalMs: number, failures: number): number {
  return Math.min(Math.max(MAX_BACKOFF_MS, pollIntervalMs), pollIntervalMs * 2 ** (failures - 1));
}

/** Publishes, then sleeps until a notification or the poll interval (the backoff after failures). */
export async function runPollingLoop(input: {
  publishPending: () => Promise<Drain>;
  wakeup: Wakeup;
  isClosed: () => boolean;
  pollIntervalMs: number;
  log: RelayLog;
}): Promise<void> {
  const { wakeup, isClosed, pollIntervalMs, log } = input;
  let failures = 0;
  while (!isClosed()) {
    try {
      await input.publishPending();
      failures = 0;
    } catch (error) {
      failures += 1;
      log.error(
        `outbox relay: ${describeError(error)}; retrying in ${String(backoffMs(pollIntervalMs, failures))} ms`,
      );
    }
    if (isClosed()) return;
    await wakeup.wait(failures === 0 ? pollIntervalMs : backoffMs(pollIntervalMs, failures));
  }
}
