// The relay: moves committed outbox rows to the event store, oldest first,
// on a notification from the outbox trigger or every poll interval.
import { Wakeup, type EventStore } from '@effectively-once/event-store';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { countPending, lastPendingPosition, pruneSentEvents } from './outbox.repository.js';
import { outboxView, type OutboxTables } from './outbox.table.js';
import { sessionLock, transactionLock, type RelayLock, type RelayLog } from './relay-lock.js';
import type { AfterAppend } from './publish-batch.js';
import { publishUntilDrained, runPollingLoop, type Drain } from './relay-loop.js';

export { OutboxPublishError } from './outbox-publish-error.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

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
  /**
   * Awaited for each row after the store accepted its event and before the
   * row is marked sent: the failure lab's after-relay-append point. If it
   * throws (or the process dies in it), the row stays unsent and is appended
   * again later, which the store accepts as a no-op. None outside the lab.
   */
  afterAppend?: AfterAppend | undefined;
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
type RelaySettings = z.infer<typeof SettingsSchema>;

/** Runs one piece of work at a time: the polling loop's and flush()'s batches never overlap. */
function serialized() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** A session of its own (lock held, LISTENing) given a URL; else the lock is taken per batch. */
function openRelayLock(input: {
  databaseUrl: string | undefined;
  db: Kysely<OutboxTables>;
  wakeup: Wakeup;
  pollIntervalMs: number;
  log: RelayLog;
}): RelayLock {
  const { databaseUrl, db, wakeup, log } = input;
  return databaseUrl === undefined
    ? transactionLock(db)
    : sessionLock({
        url: databaseUrl,
        onNotification: () => wakeup.signal(),
        provenForMs: input.pollIntervalMs,
        log,
      });
}

/** Deletes sent rows past their retention, at most once per PRUNE_EVERY_MS, holding the lock. */
function sentRowsPruner(input: {
  lock: RelayLock;
  retentionMs: number | false;
  log: RelayLog;
}): () => Promise<void> {
  const { lock, retentionMs, log } = input;
  let prunedAt: number | undefined;
  return async () => {
    if (retentionMs === false) return;
    if (prunedAt !== undefined && Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    const deleted = await lock.withLock((locked) =>
      pruneSentEvents(locked, { olderThanMs: retentionMs }),
    );
    if (deleted === undefined) return;
    prunedAt = Date.now();
    if (deleted > 0) log.info(`outbox relay: pruned ${String(deleted)} sent row(s)`);
  };
}

/** flush(): how many rows were pending at the call, once they are all published. */
async function flushPending(
  db: Kysely<OutboxTables>,
  publishPending: (upTo: number) => Promise<Drain>,
): Promise<number> {
  // What is pending now; rows the polling loop is publishing at this
  // moment count too, since the flush waits for that batch to finish.
  // With nothing pending it still takes its turn (and the lock), so that
  // once it resolves this relay is active unless another one is.
  const upTo = (await lastPendingPosition(db)) ?? 0;
  const due = upTo === 0 ? 0 : await countPending(db, { upTo });
  const { drained, published } = await publishPending(upTo);
  return drained ? due : published;
}

function parseSettings<Database extends OutboxTables>(
  options: OutboxRelayOptions<Database>,
): RelaySettings {
  return SettingsSchema.parse({
    pollIntervalMs: options.pollIntervalMs,
    batchSize: options.batchSize,
    retentionMs: options.retentionMs,
  });
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
  const settings = parseSettings(options);
  const db = outboxView(options.db);
  const log = options.log ?? console;
  const wakeup = new Wakeup();
  const lock = openRelayLock({
    databaseUrl: options.databaseUrl,
    db,
    wakeup,
    pollIntervalMs: settings.pollIntervalMs,
    log,
  });
  const pruneIfDue = sentRowsPruner({ lock, retentionMs: settings.retentionMs, log });
  const exclusive = serialized();
  let closed = false;
  /** Set once close() has released the lock: no batch may reopen it. */
  let lockClosed = false;
  const closedError = () => new Error('The outbox relay is closed; start a new one to publish.');

  const publishPending = (upTo?: number) =>
    exclusive(async () => {
      if (lockClosed) throw closedError();
      const { store, onPublished, afterAppend } = options;
      const { batchSize } = settings;
      const result = await publishUntilDrained({
        lock,
        store,
        batchSize,
        upTo,
        onPublished,
        afterAppend,
      });
      if (result.drained) await pruneIfDue();
      return result;
    });

  const loop = runPollingLoop({
    publishPending,
    wakeup,
    isClosed: () => closed,
    pollIntervalMs: settings.pollIntervalMs,
    log,
  });

  let closing: Promise<void> | undefined;
  return {
    flush: async () => {
      if (closed) throw closedError();
      return flushPending(db, publishPending);
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
