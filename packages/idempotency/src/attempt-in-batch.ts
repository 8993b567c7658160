import type { Kysely } from 'kysely';
import { claimMessage } from './claim.js';
import { DUPLICATE_BY_MARKER, type AttemptResult, type UnitOfWork } from './attempt-once.js';
import type { Consumer } from './consumer.js';
import { classifyFailure } from './failure-classifier.js';
import { runInsideTransaction } from './inside-transaction.js';
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
  const { batch, consumer, message, work } = attempt;
  const trx = await batch.join(attempt.db, consumer.isolation);
  const name = batch.nextSavepoint();
  const inSavepoint = await trx.savepoint(name).execute();
  try {
    const claimStartedAt = performance.now();
    const owned = await claimMessage(markerView(inSavepoint), consumer.name, message.id);
    const claimMs = performance.now() - claimStartedAt;
    attempt.timeClaim(claimMs);
    noteClaim({ consumer: consumer.name, messageId: message.id, owned, ms: claimMs });
    const value: AttemptResult<Result> = owned
      ? {
          outcome: 'applied',
          result: await runInsideTransaction(
            { consumer: consumer.name, messageId: message.id },
            () => work(inSavepoint, message),
          ),
        }
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
