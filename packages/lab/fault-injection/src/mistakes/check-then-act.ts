// MISTAKE check-then-act: asks "was this message processed?" with a SELECT,
// works, then writes the marker without looking at whether its INSERT won.
// Breaks under two concurrent deliveries of one message (a lease expired and
// a second process took it while the first still works): a SELECT sees only
// committed rows, so both read "not yet", both work, and the loser's marker
// INSERT quietly does nothing. Effect twice, one marker.
// Lab scenario: concurrent-deliveries. Correct path: ../attempt-once.ts.
import {
  DUPLICATE_BY_MARKER,
  inTransaction,
  type AttemptResult,
  type HookedAttempt,
} from '@effectively-once/idempotency';
import { claimMessage } from '@effectively-once/idempotency';
import { findMarker } from '@effectively-once/idempotency';
import { markerView, type IdempotencyTables } from '@effectively-once/idempotency';

export function checkThenAct<Database extends IdempotencyTables, Result>(
  attempt: HookedAttempt<Database, Result>,
): Promise<AttemptResult<Result>> {
  const { consumer, message, work, reach } = attempt;
  return inTransaction(attempt, async (trx) => {
    const checkStartedAt = performance.now();
    const seen = await findMarker(trx, consumer.name, message.id);
    attempt.timeClaim(performance.now() - checkStartedAt);
    if (seen !== undefined) return DUPLICATE_BY_MARKER;
    // The window: a competing delivery can pass the same check right now.
    await reach('before-claim', trx);
    const result = await work(trx, message);
    // The INSERT's answer is ignored: that is the mistake.
    await claimMessage(markerView(trx), consumer.name, message.id);
    return { outcome: 'applied', result } as const;
  });
}
