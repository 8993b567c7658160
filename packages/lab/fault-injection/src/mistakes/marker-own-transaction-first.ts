// MISTAKE marker-own-transaction-first: commits the marker in a transaction of
// its own, then does the work in a second one.
// Breaks when the process crashes or the work fails between the two commits:
// the marker says "done", the effect never happened, and every redelivery is
// acknowledged as a duplicate. The message is lost without an error.
// Lab scenario: crash-after-claim. Correct path: ../attempt-once.ts.
import {
  DUPLICATE_BY_MARKER,
  inTransaction,
  type AttemptResult,
  type HookedAttempt,
} from '@effectively-once/idempotency';
import { claimMessage } from '@effectively-once/idempotency';
import { markerView, type IdempotencyTables } from '@effectively-once/idempotency';

export async function markerOwnTransactionFirst<Database extends IdempotencyTables, Result>(
  attempt: HookedAttempt<Database, Result>,
): Promise<AttemptResult<Result>> {
  const { consumer, message, work, reach } = attempt;
  const owned = await inTransaction(attempt, async (trx) => {
    const claimStartedAt = performance.now();
    const won = await claimMessage(markerView(trx), consumer.name, message.id);
    attempt.timeClaim(performance.now() - claimStartedAt);
    return won;
  });
  if (!owned) return DUPLICATE_BY_MARKER;
  // The marker is committed and the effect is not: no transaction is open here.
  await reach('after-claim', undefined);
  const result = await inTransaction(attempt, (trx) => work(trx, message));
  return { outcome: 'applied', result };
}
