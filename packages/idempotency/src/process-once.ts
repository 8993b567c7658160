import type { Kysely } from 'kysely';
import { attemptOnce, type Attempt, type AttemptResult, type UnitOfWork } from './attempt-once.js';
import type { Consumer } from './consumer.js';
import { toConsumerFailure } from './consumer-failure.js';
import { activeProcessingHooks } from './hooks/processing-hooks.js';
import { reachFor } from './hooks/reach.js';
import { attemptInBatch } from './attempt-in-batch.js';
import { currentBatch, MessageLeftBatchError } from './message-batch.js';
import { assertMessageRef, type MessageRef } from './message.js';
import { notify, type Outcome, type OutcomeListener } from './outcome.js';
import type { IdempotencyTables } from './processed-message.table.js';
import { runWithTransactionRetry, type RetryOutcome } from './transaction-retry.js';
import { noteDuplicate } from './trace-notes.js';

export type { UnitOfWork } from './attempt-once.js';

export type ProcessResult<Result> =
  | { outcome: 'applied'; result: Result; attempts: number }
  | {
      outcome: 'duplicate';
      /** `marker`: this message id was processed. `business-key`: the fact was, under another id. */
      detectedBy: 'marker' | 'business-key';
      constraint?: string;
      attempts: number;
    };

export interface ProcessOnceOptions<Database extends IdempotencyTables, Result> {
  db: Kysely<Database>;
  consumer: Consumer;
  message: MessageRef;
  work: UnitOfWork<Database, Result>;
  onOutcome?: OutcomeListener;
  /** A claim at least this slow is reported as having waited on a competitor. */
  claimWaitThresholdMs?: number;
}

const DEFAULT_CLAIM_WAIT_THRESHOLD_MS = 20;

/**
 * The attempt to run, given its number: the correct path, unchanged when no
 * hooks are active; under hooks, the same path telling them where it is, or
 * the flow they chose for this consumer.
 */
function chooseAttempt<Database extends IdempotencyTables, Result>(
  options: ProcessOnceOptions<Database, Result>,
  timeClaim: (ms: number) => void,
): (attemptNumber: number) => Promise<AttemptResult<Result>> {
  const { db, consumer, message, work } = options;
  const attempt: Attempt<Database, Result> = { db, consumer, message, work, timeClaim };
  const hooks = activeProcessingHooks();
  if (hooks === undefined) return () => attemptOnce(attempt);
  // Asked once per call: a switch flipped mid-retry does not change the flow.
  const flow = hooks.attemptFor?.(consumer.name) ?? attemptOnce;
  return (attemptNumber) => {
    const at = { consumer: consumer.name, message, attempt: attemptNumber };
    return flow({ ...attempt, reach: reachFor<Database>(hooks, at) });
  };
}

/**
 * Alone, a transaction of its own, restarted after 40001 / 40P01. Inside a
 * batch (openMessageBatch, ADR 0036), a savepoint of the batch's transaction,
 * where processing hooks hear the same points. A mistaken attempt flow chosen
 * by the hooks leaves the batch and runs alone: each one opens and commits
 * transactions of its own (the marker's own transaction first, say), which a
 * savepoint cannot hold without changing what the mistake shows.
 */
function runAttempts<Database extends IdempotencyTables, Result>(
  options: ProcessOnceOptions<Database, Result>,
  timeClaim: (ms: number) => void,
): Promise<RetryOutcome<AttemptResult<Result>>> {
  const batch = currentBatch();
  if (batch === undefined) {
    return runWithTransactionRetry(options.consumer, chooseAttempt(options, timeClaim));
  }
  const hooks = activeProcessingHooks();
  if (hooks === undefined) return attemptInBatch({ ...options, batch, timeClaim });
  const { consumer, message } = options;
  if (hooks.attemptFor?.(consumer.name) !== undefined) {
    return Promise.reject(new MessageLeftBatchError('a mistaken attempt flow runs alone'));
  }
  const reach = reachFor<Database>(hooks, { consumer: consumer.name, message, attempt: 1 });
  return attemptInBatch({ ...options, batch, timeClaim, reach });
}

/**
 * Runs `work` at most once per (consumer, message id), however often the
 * message is delivered.
 *
 * One transaction claims the message in `processed_message` and runs the work;
 * both commit or neither does. A duplicate is a successful no-op. SQLSTATE
 * 40001 and 40P01 restart the whole transaction with the same message id, up to
 * the consumer's retry policy. Every other failure rolls back and is thrown as
 * a {@link ConsumerFailure}, retryable or terminal. Acknowledge the delivery
 * only after this resolves (see `settleDelivery`).
 *
 * Inside a batch (openMessageBatch) the same claim and work run in a
 * savepoint of the batch's transaction, which commits once for all its
 * messages; a message that fails there is rolled back to its savepoint and
 * rejects with MessageLeftBatchError, for its caller to handle it alone.
 *
 * Hooks installed with `withProcessingHooks` (a test, an attached extension) hear
 * each point (before-claim, after-claim, after-business) and may choose the
 * attempt flow for this consumer; without hooks none of it runs.
 *
 * @example
 * const result = await processOnce({
 *   db, consumer: reserveInventory, message: { id: event.id, type: event.type },
 *   work: (trx) => reserveStock(trx, event.data),
 * });
 */
export async function processOnce<Database extends IdempotencyTables, Result>(
  options: ProcessOnceOptions<Database, Result>,
): Promise<ProcessResult<Result>> {
  const { consumer, message } = options;
  const threshold = options.claimWaitThresholdMs ?? DEFAULT_CLAIM_WAIT_THRESHOLD_MS;
  const startedAt = performance.now();
  let claimMs = 0;
  const report = (outcome: Outcome, attempts: number, reason?: string): void =>
    notify(options.onOutcome, {
      outcome,
      consumer: consumer.name,
      messageId: message.id,
      eventType: message.type,
      durationMs: performance.now() - startedAt,
      attempts,
      claimMs,
      claimWaited: claimMs >= threshold,
      ...(reason === undefined ? {} : { reason }),
    });

  try {
    assertMessageRef(message);
  } catch (error) {
    report('terminal_failure', 0, error instanceof Error ? error.message : String(error));
    throw error;
  }
  const run = await runAttempts(options, (ms) => (claimMs = ms));
  if (run.ok) {
    if (run.value.outcome === 'duplicate') noteDuplicate(run.value.detectedBy);
    report(run.value.outcome, run.attempts);
    return { ...run.value, attempts: run.attempts };
  }
  const { failure, attempts } = run;
  if (failure.kind === 'business-duplicate') {
    noteDuplicate('business-key');
    report('duplicate', attempts, failure.reason);
    return {
      outcome: 'duplicate',
      detectedBy: 'business-key',
      constraint: failure.constraint,
      attempts,
    };
  }
  const consumerFailure = toConsumerFailure(run);
  report(`${consumerFailure.kind}_failure`, attempts, consumerFailure.reason);
  throw consumerFailure;
}
