// MISTAKE message-id-alone: keys the marker by the message id only (here every
// consumer claims under the same name, '*'), as if a message could be
// processed only once in the whole system.
// Breaks as soon as a second consumer reads the same event: whichever consumer
// claims first suppresses the others, which acknowledge a "duplicate" they
// never applied. No crash is needed.
// Lab scenario: one-event-two-consumers. Correct path: ../attempt-once.ts.
import { attemptOnce, type AttemptResult, type HookedAttempt } from '@effectively-once/idempotency';
import type { IdempotencyTables } from '@effectively-once/idempotency';

/** The one marker name every consumer of the database shares under this mistake. */
export const SHARED_MARKER_NAME = '*';

export function messageIdAlone<Database extends IdempotencyTables, Result>(
  attempt: HookedAttempt<Database, Result>,
): Promise<AttemptResult<Result>> {
  return attemptOnce(attempt, SHARED_MARKER_NAME);
}
