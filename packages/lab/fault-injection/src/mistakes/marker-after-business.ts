// MISTAKE marker-after-business: checks for the marker, commits the work, and
// only then writes the marker in a second transaction.
// Breaks when the process crashes or fails between the two commits: the
// effect is committed without its marker, so the redelivery finds nothing,
// works again and the effect happens twice.
// Lab scenario: crash-after-business. Correct path: ../attempt-once.ts.
import {
  DUPLICATE_BY_MARKER,
  inTransaction,
  type AttemptResult,
  type HookedAttempt,
} from '@effectively-once/idempotency';
import { claimMessage } from '@effectively-once/idempotency';
import { findMarker } from '@effectively-once/idempotency';
import { markerView, type IdempotencyTables } from '@effectively-once/idempotency';

export async function markerAfterBusiness<Database extends IdempotencyTables, Result>(
  attempt: HookedAttempt<Database, Result>,
): Promise<AttemptResult<Result>> {
  const { consumer, message, work, reach } = attempt;
  const done = await inTransaction(attempt, async (trx): Promise<AttemptResult<Result>> => {
    const checkStartedAt = performance.now();
    const seen = await findMarker(trx, consumer.name, message.id);
    attempt.timeClaim(performance.now() - checkStartedAt);
    if (seen !== undefined) return DUPLICATE_BY_MARKER;
    return { outcome: 'applied', result: await work(trx, message) };
  });
  if (done.outcome === 'duplicate') return done;
  // The effect is committed and the marker is not: no transaction is open here.
  await reach('after-business', undefined);
  await inTransaction(attempt, (trx) => claimMessage(markerView(trx), consumer.name, message.id));
  return done;
}
