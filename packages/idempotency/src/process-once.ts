import type { Kysely, Transaction } from 'kysely';
import { claimMessage } from './claim.js';
import type { Consumer } from './consumer.js';
import { toConsumerFailure } from './consumer-failure.js';
import { assertMessageRef, type MessageRef } from './message.js';
import { notify, type Outcome, type OutcomeListener } from './outcome.js';
import { markerView, type IdempotencyTables } from './processed-message.table.js';
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

type AttemptResult<Result> =
  { outcome: 'applied'; result: Result } | { outcome: 'duplicate'; detectedBy: 'marker' };

const DEFAULT_CLAIM_WAIT_THRESHOLD_MS = 20;

async function attemptOnce<Database extends IdempotencyTables, Result>(
  options: ProcessOnceOptions<Database, Result>,
  timeClaim: (ms: number) => void,
): Promise<AttemptResult<Result>> {
  const { db, consumer, message, work } = options;
  return db
    .transaction()
    .setIsolationLevel(consumer.isolation)
    .execute(async (trx) => {
      const claimStartedAt = performance.now();
      const owned = await claimMessage(markerView(trx), consumer.name, message.id);
      timeClaim(performance.now() - claimStartedAt);
      if (!owned) return { outcome: 'duplicate', detectedBy: 'marker' } as const;
      return { outcome: 'applied', result: await work(trx, message) } as const;
    });
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
  const run = await runWithTransactionRetry(consumer, () =>
    attemptOnce(options, (ms) => (claimMs = ms)),
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
