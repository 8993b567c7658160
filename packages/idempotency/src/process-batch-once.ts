import type { Kysely, Transaction } from 'kysely';
import { claimMessages } from './claim.js';
import type { Consumer } from './consumer.js';
import { ConsumerFailure, toConsumerFailure } from './consumer-failure.js';
import type { FailureClass } from './failure-classifier.js';
import { runInsideTransaction } from './inside-transaction.js';
import { assertMessageRef, type MessageRef } from './message.js';
import { notify, type Outcome, type OutcomeListener } from './outcome.js';
import { markerView, type IdempotencyTables } from './processed-message.table.js';
import { runWithTransactionRetry } from './transaction-retry.js';

export interface BatchOutcome {
  messageId: string;
  outcome: 'applied' | 'duplicate';
}

export interface ProcessBatchOnceOptions<
  Database extends IdempotencyTables,
  Message extends MessageRef,
> {
  db: Kysely<Database>;
  consumer: Consumer;
  messages: readonly Message[];
  /** Applies every claimed message, in the claiming transaction. */
  work: (trx: Transaction<Database>, claimed: readonly Message[]) => Promise<void>;
  /** Hears one report per message of the batch. */
  onOutcome?: OutcomeListener;
}

/** Positions of the first occurrence of each claimed id; later copies in the batch are duplicates. */
function firstClaimedPositions(
  messages: readonly MessageRef[],
  owned: ReadonlySet<string>,
): Set<number> {
  const seen = new Set<string>();
  const positions = new Set<number>();
  messages.forEach((message, position) => {
    if (!owned.has(message.id) || seen.has(message.id)) return;
    seen.add(message.id);
    positions.add(position);
  });
  return positions;
}

/**
 * Batch form of `processOnce`: one statement claims every message, one
 * transaction applies the claimed ones, and each message gets its own outcome.
 * It trades isolation between messages for throughput: one failing message
 * rolls the whole batch back, and the error (a ConsumerFailure) says so; the
 * caller then falls back to `processOnce` per message to find the culprit.
 */
export async function processBatchOnce<
  Database extends IdempotencyTables,
  Message extends MessageRef,
>(options: ProcessBatchOnceOptions<Database, Message>): Promise<BatchOutcome[]> {
  const { db, consumer, messages, work } = options;
  messages.forEach(assertMessageRef);
  const startedAt = performance.now();
  let claimMs = 0;
  const run = await runWithTransactionRetry(consumer, () =>
    db
      .transaction()
      .setIsolationLevel(consumer.isolation)
      .execute(async (trx) => {
        const ids = messages.map((message) => message.id);
        const claimStartedAt = performance.now();
        const owned = await claimMessages(markerView(trx), consumer.name, ids);
        claimMs = performance.now() - claimStartedAt;
        const claimed = firstClaimedPositions(messages, owned);
        if (claimed.size > 0) {
          const batch = messages.filter((_, position) => claimed.has(position));
          // Marked as processOnce's is: a test guard fails a network call made here.
          const inside = { consumer: consumer.name, messageId: ids.join(', ') };
          await runInsideTransaction(inside, () => work(trx, batch));
        }
        return claimed;
      }),
  );
  // One report per message, as processOnce gives, with the batch's timings.
  const report = (outcome: (position: number) => Outcome, reason?: string): void => {
    const durationMs = performance.now() - startedAt;
    messages.forEach((message, position) =>
      notify(options.onOutcome, {
        outcome: outcome(position),
        consumer: consumer.name,
        messageId: message.id,
        eventType: message.type,
        durationMs,
        attempts: run.attempts,
        claimMs,
        claimWaited: false,
        ...(reason === undefined ? {} : { reason }),
      }),
    );
  };
  if (!run.ok) {
    const failure = batchFailure(run);
    report(() => `${failure.kind}_failure`, failure.reason);
    throw failure;
  }
  const claimed = run.value;
  report((position) => (claimed.has(position) ? 'applied' : 'duplicate'));
  return messages.map((message, position) => ({
    messageId: message.id,
    outcome: claimed.has(position) ? 'applied' : 'duplicate',
  }));
}

function batchFailure(run: {
  failure: FailureClass;
  error: unknown;
  attempts: number;
}): ConsumerFailure {
  if (run.failure.kind !== 'business-duplicate') return toConsumerFailure(run);
  // Which message repeats a known fact cannot be told from one rolled-back
  // batch: the caller retries them one by one, where processOnce reports it.
  return new ConsumerFailure({
    kind: 'retryable',
    reason: `a message in the batch repeats a business fact (${run.failure.constraint}); process the batch's messages one by one with processOnce`,
    sqlState: run.failure.sqlState,
    attempts: run.attempts,
    cause: run.error,
  });
}
