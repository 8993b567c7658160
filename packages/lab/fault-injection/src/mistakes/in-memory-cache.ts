// MISTAKE in-memory-cache: remembers processed messages in a Set inside the
// process instead of a marker row committed with the work.
// Breaks on the first restart (or on a second process): a crash after the
// commit and before the ack loses the memory, the broker redelivers, and the
// work is applied again. The cache and the database never commit together.
// Lab scenario: crash-before-ack. Correct path: ../attempt-once.ts.
import {
  DUPLICATE_BY_MARKER,
  inTransaction,
  type AttemptResult,
  type HookedAttempt,
} from '@effectively-once/idempotency';
import type { IdempotencyTables } from '@effectively-once/idempotency';

const processed = new Set<string>();

/** What a restart does to the cache; for tests only, through `./testing`. */
export function forgetInMemoryMarkers(): void {
  processed.clear();
}

export async function inMemoryCache<Database extends IdempotencyTables, Result>(
  attempt: HookedAttempt<Database, Result>,
): Promise<AttemptResult<Result>> {
  const { consumer, message, work } = attempt;
  const key = `${consumer.name}\u0000${message.id}`;
  if (processed.has(key)) return DUPLICATE_BY_MARKER;
  const result = await inTransaction(attempt, (trx) => work(trx, message));
  processed.add(key);
  return { outcome: 'applied', result };
}
