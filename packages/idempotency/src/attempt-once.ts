import type { Kysely, Transaction } from 'kysely';
import { claimMessage } from './claim.js';
import type { Consumer } from './consumer.js';
import { runInsideTransaction } from './inside-transaction.js';
import type { MessageRef } from './message.js';
import type { Reach } from './probe/reach.js';
import type { UnitOfWork } from './process-once.js';
import { markerView, type IdempotencyTables } from './processed-message.table.js';

export type AttemptResult<Result> =
  { outcome: 'applied'; result: Result } | { outcome: 'duplicate'; detectedBy: 'marker' };

/** One whole-transaction attempt of processOnce: what it works on and whom it tells. */
export interface Attempt<Database extends IdempotencyTables, Result> {
  db: Kysely<Database>;
  consumer: Consumer;
  message: MessageRef;
  work: UnitOfWork<Database, Result>;
  /** Records how long the guarding statement took: the claim, or a mistake's check. */
  timeClaim: (ms: number) => void;
  /** Present only when a processing probe is active (the failure laboratory). */
  reach?: Reach<Database> | undefined;
}

/** An attempt in the lab: the probe is there, and a mistaken flow calls it where it breaks. */
export interface ProbedAttempt<Database extends IdempotencyTables, Result> extends Attempt<
  Database,
  Result
> {
  reach: Reach<Database>;
}

export const DUPLICATE_BY_MARKER = { outcome: 'duplicate', detectedBy: 'marker' } as const;

/** Runs `body` in one transaction at the consumer's isolation level. */
export function inTransaction<Database extends IdempotencyTables, T>(
  attempt: Pick<Attempt<Database, unknown>, 'db' | 'consumer'>,
  body: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return attempt.db.transaction().setIsolationLevel(attempt.consumer.isolation).execute(body);
}

/**
 * The correct path: claim and work in one transaction, so the marker commits
 * exactly when the effect does. `markerName` is the consumer's name; only the
 * lab's naming mistakes pass another one.
 */
export async function attemptOnce<Database extends IdempotencyTables, Result>(
  attempt: Attempt<Database, Result>,
  markerName: string = attempt.consumer.name,
): Promise<AttemptResult<Result>> {
  const { message, work, reach } = attempt;
  return inTransaction(attempt, async (trx) => {
    // Each probe call is guarded so that outside the lab no extra await runs.
    if (reach !== undefined) await reach('before-claim', trx);
    const claimStartedAt = performance.now();
    const owned = await claimMessage(markerView(trx), markerName, message.id);
    attempt.timeClaim(performance.now() - claimStartedAt);
    if (!owned) return DUPLICATE_BY_MARKER;
    if (reach !== undefined) await reach('after-claim', trx);
    // Marked so a test guard can fail a network call made while this transaction is open.
    const inside = { consumer: attempt.consumer.name, messageId: message.id };
    const result = await runInsideTransaction(inside, () => work(trx, message));
    if (reach !== undefined) await reach('after-business', trx);
    return { outcome: 'applied', result } as const;
  });
}
