import type { Kysely, Transaction } from 'kysely';
import { attemptOnce, type Attempt, type AttemptResult } from './attempt-once.js';
import type { Consumer } from './consumer.js';
import { toConsumerFailure } from './consumer-failure.js';
import { assertMessageRef, type MessageRef } from './message.js';
import { notify, type Outcome, type OutcomeListener } from './outcome.js';
import { MISTAKEN_ATTEMPTS } from './mistakes/index.js';
import { activeProcessingProbe } from './probe/processing-probe.js';
import { reachFor } from './probe/reach.js';
import type { IdempotencyTables } from './processed-message.table.js';
import { runWithTransactionRetry } from './transaction-retry.js';

/** The caller's business change; it runs only in a transaction that owns the claim. */
export type UnitOfWork<Database, Result> = (
  trx: Transaction<Database>,
  message: MessageRef,
) => Promise<Result>;

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
 * The attempt to run, given its number: today's correct path, unchanged when
 * no probe is active; in the lab, the same path telling the probe where it is,
 * or the flow of the mistake switched on for this consumer.
 */
function chooseAttempt<Database extends IdempotencyTables, Result>(
  options: ProcessOnceOptions<Database, Result>,
  timeClaim: (ms: number) => void,
): (attemptNumber: number) => Promise<AttemptResult<Result>> {
  const { db, consumer, message, work } = options;
  const attempt: Attempt<Database, Result> = { db, consumer, message, work, timeClaim };
  const probe = activeProcessingProbe();
  if (probe === undefined) return () => attemptOnce(attempt);
  // Read once per call: a switch flipped mid-retry does not change the flow.
  const mistake = probe.markerMistake(consumer.name);
  return (attemptNumber) => {
    const at = { consumer: consumer.name, message, attempt: attemptNumber };
    const probed = { ...attempt, reach: reachFor<Database>(probe, at) };
    return mistake === undefined ? attemptOnce(probed) : MISTAKEN_ATTEMPTS[mistake](probed);
  };
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
 * In the failure laboratory a probe installed with `withProcessingProbe` hears
 * each point (before-claim, after-claim, after-business) and may switch one of
 * the teaching mistakes on for this consumer; without a probe none of it runs.
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
  const run = await runWithTransactionRetry(
    consumer,
    chooseAttempt(options, (ms) => (claimMs = ms)),
  );
  if (run.ok) {
    report(run.value.outcome, run.attempts);
    return { ...run.value, attempts: run.attempts };
  }
  const { failure, attempts } = run;
  if (failure.kind === 'business-duplicate') {
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
