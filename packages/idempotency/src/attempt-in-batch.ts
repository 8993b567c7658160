import type { Kysely, Transaction } from 'kysely';
import { claimMessage } from './claim.js';
import { DUPLICATE_BY_MARKER, type AttemptResult, type UnitOfWork } from './attempt-once.js';
import type { Consumer } from './consumer.js';
import { classifyFailure } from './failure-classifier.js';
import { runInsideTransaction } from './inside-transaction.js';
import type { Reach } from './hooks/points.js';
import { MessageLeftBatchError, type BatchTransaction } from './message-batch.js';
import type { MessageRef } from './message.js';
import { markerView, type IdempotencyTables } from './processed-message.table.js';
import type { RetryOutcome } from './transaction-retry.js';
import { noteClaim } from './trace-notes.js';

export interface BatchAttempt<Database extends IdempotencyTables, Result> {
  batch: BatchTransaction;
  db: Kysely<Database>;
  consumer: Consumer;
  message: MessageRef;
  work: UnitOfWork<Database, Result>;
  timeClaim: (ms: number) => void;
  /**
   * Present under processing hooks (the failure lab): the message passes its
   * points inside its savepoint, so a crash there kills the batch before its
   * COMMIT and the whole batch is delivered again.
   */
  reach?: Reach<Database> | undefined;
}

/**
 * processOnce's attempt inside a batch: the same claim and work, in a
 * savepoint of the batch's transaction instead of a transaction of their own.
 * RELEASE keeps them for the batch's COMMIT; on any failure ROLLBACK TO the
 * savepoint takes back this message's claim and work, and only them. A
 * business-key duplicate is answered here, as alone; every other failure
 * leaves the batch (MessageLeftBatchError) and is handled alone after the
 * COMMIT, where a 40001 gets a fresh transaction (a savepoint keeps the
 * batch's snapshot, so retrying in place could not succeed).
 */
export async function attemptInBatch<Database extends IdempotencyTables, Result>(
  attempt: BatchAttempt<Database, Result>,
): Promise<RetryOutcome<AttemptResult<Result>>> {
  const { batch, consumer, message, reach } = attempt;
  const trx = await batch.join(attempt.db, consumer.isolation);
  const name = batch.nextSavepoint();
  const inSavepoint = await trx.savepoint(name).execute();
  try {
    // Each hook call is guarded so that without hooks no extra await runs.
    if (reach !== undefined) await reach('before-claim', inSavepoint);
    const claimStartedAt = performance.now();
    const owned = await claimMessage(markerView(inSavepoint), consumer.name, message.id);
    const claimMs = performance.now() - claimStartedAt;
    attempt.timeClaim(claimMs);
    noteClaim({ consumer: consumer.name, messageId: message.id, owned, ms: claimMs });
    const value: AttemptResult<Result> = owned
      ? await applyInSavepoint(attempt, inSavepoint)
      : DUPLICATE_BY_MARKER;
    await inSavepoint.releaseSavepoint(name).execute();
    return { ok: true, value, attempts: 1 };
  } catch (error) {
    await inSavepoint
      .rollbackToSavepoint(name)
      .execute()
      .catch((rollbackError: unknown) => {
        batch.broken(rollbackError);
      });
    const failure = classifyFailure(error, consumer.businessKeys);
    if (failure.kind === 'business-duplicate') return { ok: false, failure, error, attempts: 1 };
    throw new MessageLeftBatchError(`${message.id} failed inside the batch`, { cause: error });
  }
}

/** The owned message's work in its savepoint, between the after-claim and after-business points. */
async function applyInSavepoint<Database extends IdempotencyTables, Result>(
  attempt: BatchAttempt<Database, Result>,
  inSavepoint: Transaction<Database>,
): Promise<AttemptResult<Result>> {
  const { consumer, message, work, reach } = attempt;
  if (reach !== undefined) await reach('after-claim', inSavepoint);
  const result = await runInsideTransaction(
    { consumer: consumer.name, messageId: message.id },
    () => work(inSavepoint, message),
  );
  if (reach !== undefined) await reach('after-business', inSavepoint);
  return { outcome: 'applied', result };
}
