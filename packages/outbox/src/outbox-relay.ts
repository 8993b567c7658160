// The relay: moves committed outbox rows to the event store, oldest first,
// on a notification from the outbox trigger or every poll interval.
import type { EventStore } from '@effectively-once/event-store';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { countPending, lastPendingPosition, pruneSentEvents } from './outbox.repository.js';
import { outboxView, type OutboxTables } from './outbox.table.js';
import { publishBatch, type StreamFailure } from './publish-batch.js';
import { sessionLock, transactionLock, type RelayLog } from './relay-lock.js';
import { Wakeup } from './wakeup.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const MAX_BACKOFF_MS = 10_000;

export interface OutboxRelayOptions<Database extends OutboxTables> {
  /** The service's database, with the outbox table (run `outboxMigrations`). */
  db: Kysely<Database>;
  store: EventStore;
  /** Where failures and changes of role go; the console by default. Fastify's logger fits. */
  log?: RelayLog;
  /** How often the relay looks for rows when no notification comes; 500 ms by default. */
  pollIntervalMs?: number;
  /** Rows read per batch; 100 by default. */
  batchSize?: number;
  /**
   * The URL of `db`'s database. With it the relay holds its lock on a
   * connection of its own, LISTENs there, and wakes the moment an enqueueing
   * transaction commits. Without it, it polls and takes the lock per batch.
   */
  databaseUrl?: string;
  /** Sent rows older than this are deleted (checked hourly); 7 days by default, `false` keeps them. */
  retentionMs?: number | false;
  /** Called with the number of events each batch published: for a metric, and for tests to wait on. */
  onPublished?: (count: number) => void;
}

export interface OutboxRelay {
  /**
   * Publishes every row unsent at the call and resolves, once they are all
   * sent, with how many that was. A standby relay cannot publish: it resolves
   * with 0 at once. Rejects with OutboxPublishError when a stream failed.
   */
  flush(): Promise<number>;
  /** Rows not yet published. */
  pending(): Promise<number>;
  /** Finishes the batch in progress, releases the lock and closes the relay's connection. */
  close(): Promise<void>;
}

const SettingsSchema = z.object({
  pollIntervalMs: z.number().int().positive().default(500),
  batchSize: z.number().int().min(1).max(10_000).default(100),
  retentionMs: z.union([z.literal(false), z.number().positive()]).default(7 * DAY_MS),
});

/** Some streams could not be appended to; their rows stay unsent and are retried. */
export class OutboxPublishError extends Error {
  override readonly name = 'OutboxPublishError';
  constructor(
    readonly failures: readonly StreamFailure[],
    /** Events the same run did publish, on other streams. */
    readonly published: number,
  ) {
    const streams = failures.map(
      (failure) => `"${failure.streamName}" (${describeError(failure.error)})`,
    );
    super(
      `Could not append to ${streams.join(', ')}; their rows stay unsent, in order, and are retried. ${String(published)} event(s) of other streams were published.`,
    );
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined
    ? error.message
    : `${error.message} (cause: ${describeError(error.cause)})`;
}

/** Runs one piece of work at a time: the polling loop's and flush()'s batches never overlap. */
function serialized() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Starts the relay of one service database. Run one per service instance:
 * the relays of a database agree on one active relay through an advisory
 * lock, and another takes over when it dies. Errors are logged and retried
 * with backoff; they never reach the caller except through `flush()`.
 *
 * @example
 * const relay = startOutboxRelay({ db, store, databaseUrl: config.databaseUrl, log: app.log });
 * // on shutdown
 * await relay.close();
 */
export function startOutboxRelay<Database extends OutboxTables>(
  options: OutboxRelayOptions<Database>,
): OutboxRelay {
  const settings = SettingsSchema.parse({
    pollIntervalMs: options.pollIntervalMs,
    batchSize: options.batchSize,
    retentionMs: options.retentionMs,
  });
  const { store } = options;
  const db = outboxView(options.db);
  const log = options.log ?? console;
  const wakeup = new Wakeup();
  const lock =
    options.databaseUrl === undefined
      ? transactionLock(db)
      : sessionLock({ url: options.databaseUrl, db, onNotification: () => wakeup.signal(), log });
  const exclusive = serialized();
  let closed = false;
  const isClosed = () => closed;
  /** Set once close() has released the lock: no batch may reopen it. */
  let lockClosed = false;
  const closedError = () => new Error('The outbox relay is closed; start a new one to publish.');
  let prunedAt: number | undefined;

  const pruneIfDue = async () => {
    const { retentionMs } = settings;
    if (retentionMs === false) return;
    if (prunedAt !== undefined && Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    const deleted = await lock.withLock((locked) =>
      pruneSentEvents(locked, { olderThanMs: retentionMs }),
    );
    if (deleted === undefined) return;
    prunedAt = Date.now();
    if (deleted > 0) log.info(`outbox relay: pruned ${String(deleted)} sent row(s)`);
  };

  /**
   * Batches until the backlog (up to `upTo`) is drained, or another relay
   * holds the lock.
   */
  const publishPending = (upTo?: number) =>
    exclusive(async () => {
      if (lockClosed) throw closedError();
      let published = 0;
      for (;;) {
        const batch = await lock.withLock((locked) =>
          publishBatch({ db: locked, store, limit: settings.batchSize, upTo }),
        );
        if (batch === undefined) return { drained: false, published };
        published += batch.published;
        if (batch.published > 0) options.onPublished?.(batch.published);
        if (batch.failures.length > 0) throw new OutboxPublishError(batch.failures, published);
        if (batch.read < settings.batchSize) break;
      }
      await pruneIfDue();
      return { drained: true, published };
    });

  /** Exponential from the poll interval, capped: a store that is down is not hammered. */
  const backoffMs = (failures: number) =>
    Math.min(
      Math.max(MAX_BACKOFF_MS, settings.pollIntervalMs),
      settings.pollIntervalMs * 2 ** (failures - 1),
    );

  const loop = (async () => {
    let failures = 0;
    while (!isClosed()) {
      try {
        await publishPending();
        failures = 0;
      } catch (error) {
        failures += 1;
        log.error(
          `outbox relay: ${describeError(error)}; retrying in ${String(backoffMs(failures))} ms`,
        );
      }
      if (isClosed()) return;
      await wakeup.wait(failures === 0 ? settings.pollIntervalMs : backoffMs(failures));
    }
  })();

  let closing: Promise<void> | undefined;
  return {
    flush: async () => {
      if (closed) throw closedError();
      // What is pending now; rows the polling loop is publishing at this
      // moment count too, since the flush waits for that batch to finish.
      // With nothing pending it still takes its turn (and the lock), so that
      // once it resolves this relay is active unless another one is.
      const upTo = (await lastPendingPosition(db)) ?? 0;
      const due = upTo === 0 ? 0 : await countPending(db, { upTo });
      const { drained, published } = await publishPending(upTo);
      return drained ? due : published;
    },
    pending: () => countPending(db),
    close: () =>
      (closing ??= (async () => {
        closed = true;
        wakeup.signal();
        await loop;
        await exclusive(async () => {
          lockClosed = true;
          await lock.close();
        });
      })()),
  };
}
