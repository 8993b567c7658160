import type { Kysely, Transaction } from 'kysely';
import { claimMessages } from './claim.js';
import type { Consumer } from './consumer.js';
import { toConsumerFailure } from './consumer-failure.js';
import { assertMessageRef, type MessageRef } from './message.js';
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
}

/** The first occurrence of each claimed id; later copies in the same batch are duplicates. */
function firstClaimedOccurrences<Message extends MessageRef>(
  messages: readonly Message[],
  owned: ReadonlySet<string>,
): Message[] {
  const seen = new Set<string>();
  return messages.filter((message) => {
    if (!owned.has(message.id) || seen.has(message.id)) return false;
    seen.add(message.id);
    return true;
  });
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
  const run = await runWithTransactionRetry(consumer, () =>
    db
      .transaction()
      .setIsolationLevel(consumer.isolation)
      .execute(async (trx) => {
        const ids = messages.map((message) => message.id);
        const claimed = firstClaimedOccurrences(
          messages,
          await claimMessages(markerView(trx), consumer.name, ids),
        );
        if (claimed.length > 0) await work(trx, claimed);
        return new Set<MessageRef>(claimed);
      }),
  );
  if (!run.ok) throw toConsumerFailure(run);
  const claimed = run.value;
  return messages.map((message) => ({
    messageId: message.id,
    outcome: claimed.has(message) ? 'applied' : 'duplicate',
  }));
}
