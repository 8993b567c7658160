// Several deliveries in one transaction, each message in a savepoint of its
// own (ADR 0036). Under a backlog this saves a BEGIN, a COMMIT and a commit's
// WAL flush per message, and lets the acks travel together after the one
// commit, while a failing message still fails alone: its savepoint is rolled
// back, the others' work stays, and the caller handles it again on its own,
// exactly as without batching.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ControlledTransaction, IsolationLevel, Kysely } from 'kysely';

/**
 * A message that could not be processed inside the batch: its savepoint was
 * rolled back (or it never joined), nothing of it will commit with the
 * others. The caller handles it alone once the batch has ended.
 */
export class MessageLeftBatchError extends Error {
  override readonly name = 'MessageLeftBatchError';
}

/** What processOnce needs from the batch it runs in. */
export interface BatchTransaction {
  /**
   * The batch's open transaction on `db` at `isolation`, begun by its first
   * message; a message on another database or at another level cannot join
   * (MessageLeftBatchError).
   */
  join<Database>(
    db: Kysely<Database>,
    isolation: IsolationLevel,
  ): Promise<ControlledTransaction<Database>>;
  /** A savepoint name not used before in this transaction. */
  nextSavepoint(): string;
  /** After a statement failed and its savepoint could not be rolled back, nothing more can join. */
  broken(error: unknown): void;
}

/**
 * One batch, from the first message to COMMIT. `run` hands each message's
 * handler the batch in turn (one connection runs one statement at a time),
 * in the order they were called.
 */
export interface MessageBatch {
  run<T>(handle: () => Promise<T>): Promise<T>;
  /** Commits what the messages left; acknowledge them only after this resolves. */
  commit(): Promise<void>;
  /** Rolls the whole batch back (its caller gave up on it); safe to call after a failed commit. */
  rollback(): Promise<void>;
}

const active = new AsyncLocalStorage<BatchTransaction>();

/** The batch the caller runs in, or undefined for a message handled alone. */
export function currentBatch(): BatchTransaction | undefined {
  return active.getStore();
}

interface Opened {
  db: Kysely<unknown>;
  isolation: IsolationLevel;
  trx: Promise<ControlledTransaction<unknown>>;
}

/**
 * Opens a batch. Nothing reaches PostgreSQL until a message joins it.
 *
 * @example
 * const batch = openMessageBatch();
 * const results = await Promise.allSettled(deliveries.map((d) => batch.run(() => handle(d))));
 * await batch.commit(); // then ack the fulfilled ones; handle the rejected ones alone
 */
export function openMessageBatch(): MessageBatch {
  let opened: Opened | undefined;
  let failure: unknown;
  let savepoints = 0;
  let turn: Promise<unknown> = Promise.resolve();
  const transaction: BatchTransaction = {
    join: <Database>(db: Kysely<Database>, isolation: IsolationLevel) => {
      if (failure !== undefined) {
        return Promise.reject(new MessageLeftBatchError('the batch failed', { cause: failure }));
      }
      opened ??= {
        db: db as Kysely<unknown>,
        isolation,
        trx: (db as Kysely<unknown>).startTransaction().setIsolationLevel(isolation).execute(),
      };
      if (opened.db !== db || opened.isolation !== isolation) {
        return Promise.reject(
          new MessageLeftBatchError('the batch is open on another database or isolation level'),
        );
      }
      return opened.trx as Promise<ControlledTransaction<Database>>;
    },
    nextSavepoint: () => `message_${String(++savepoints)}`,
    broken: (error) => {
      failure ??= error;
    },
  };
  return {
    run: <T>(handle: () => Promise<T>): Promise<T> => {
      const mine = turn.then(() => active.run(transaction, handle));
      turn = mine.catch(() => undefined);
      return mine;
    },
    commit: async () => {
      await turn;
      if (opened === undefined) return;
      const trx = await opened.trx;
      if (failure !== undefined) {
        await trx.rollback().execute();
        throw new MessageLeftBatchError('the batch failed', { cause: failure });
      }
      try {
        await trx.commit().execute();
      } catch (error) {
        // A commit that failed without aborting still holds its connection.
        if (!trx.isRolledBack)
          await trx
            .rollback()
            .execute()
            .catch(() => undefined);
        throw error;
      }
    },
    rollback: async () => {
      await turn;
      if (opened === undefined) return;
      const trx = await opened.trx.catch(() => undefined);
      if (trx === undefined || trx.isCommitted || trx.isRolledBack) return;
      await trx.rollback().execute();
    },
  };
}
