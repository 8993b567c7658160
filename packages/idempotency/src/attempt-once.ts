import type { Kysely, Transaction } from 'kysely';
import { claimMessage } from './claim.js';
import type { Consumer } from './consumer.js';
import { runInsideTransaction } from './inside-transaction.js';
import type { MessageRef } from './message.js';
import type { Reach } from './hooks/points.js';
import { markerView, type IdempotencyTables } from './processed-message.table.js';
import { noteClaim } from './trace-notes.js';

/** The caller's business change; it runs only in a transaction that owns the claim. */
export type UnitOfWork<Database, Result> = (
  trx: Transaction<Database>,
  message: MessageRef,
) => Promise<Result>;

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
  /** Present only when processing hooks are active (the failure laboratory). */
  reach?: Reach<Database> | undefined;
}

/** An attempt under hooks: they are there, and a flow calls them where it breaks. */
export interface HookedAttempt<Database extends IdempotencyTables, Result> extends Attempt<
  Database,
  Result
> {
  reach: Reach<Database>;
}

/**
 * A whole-transaction attempt flow. `attemptOnce` is the correct one; hooks
 * may plug in another for a consumer (the lab's teaching mistakes, in
 * `./mistakes`), which processOnce runs without importing it.
 */
export type AttemptStrategy = <Database extends IdempotencyTables, Result>(
  attempt: HookedAttempt<Database, Result>,
) => Promise<AttemptResult<Result>>;

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
    // Each hook call is guarded so that outside the lab no extra await runs.
    if (reach !== undefined) await reach('before-claim', trx);
    const claimStartedAt = performance.now();
    const owned = await claimMessage(markerView(trx), markerName, message.id);
    const claimMs = performance.now() - claimStartedAt;
    attempt.timeClaim(claimMs);
    noteClaim({ consumer: markerName, messageId: message.id, owned, ms: claimMs });
    if (!owned) return DUPLICATE_BY_MARKER;
    if (reach !== undefined) await reach('after-claim', trx);
    // Marked so a test guard can fail a network call made while this transaction is open.
    const inside = { consumer: attempt.consumer.name, messageId: message.id };
    const result = await runInsideTransaction(inside, () => work(trx, message));
    if (reach !== undefined) await reach('after-business', trx);
    return { outcome: 'applied', result } as const;
  });
}
