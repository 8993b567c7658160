// What an idle consumer knows after a round that leased nothing (reported by
// es_consume, see consume.ts), and the two questions it asks while it waits:
// on held-back events, has the horizon (es_horizon, ADR 0027) moved? At a
// poll, would a round do anything at all?
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';

/** What an idle consumer needs to know to choose how long it may sleep. */
export interface IdleState {
  /**
   * Events its filter matches exist after the group's cursor: after a pump,
   * which copies everything below the horizon, those were held back
   * by an older transaction (or committed since). An older transaction that
   * writes no event sends no notification when it ends, so the consumer must
   * look again itself, but only once the horizon has moved.
   */
  heldBack: boolean;
  /** The horizon now, as text: what "has it moved?" compares (named xmin, which it was). */
  xmin: string;
  /** Milliseconds until the group's earliest scheduled retry is due; null when none is waiting. */
  nextRetryInMs: number | null;
}

/** The horizon alone: the cheap question a consumer waiting on held-back events asks. */
export async function loadXmin(db: Kysely<EventStoreTables>): Promise<string> {
  const { rows } = await sql<{
    xmin: string;
  }>`SELECT es_horizon()::text AS xmin`.execute(db);
  return rows[0]?.xmin ?? '';
}

/**
 * What the idle check answers: a round would hand out or change something,
 * or, when nothing, the same idle state a round that leased nothing reports.
 */
export type IdleCheck = { roundWanted: true } | { roundWanted: false; idle: IdleState };

/**
 * Before a poll round nothing asked for (no notification, no acknowledgment
 * to carry), one read-only statement asks whether the round would do
 * anything; only a yes costs the round, which takes the group's row FOR UPDATE
 * and commits. The statement is es_round_wanted (migration 2026-12-05T00-00,
 * a function so that its plan is kept), and it asks for a superset of what
 * es_consume (the latest in migrations/) would do, case by case:
 *
 * - pump: events its filter matches after the cursor, below the horizon (the
 *   ones a pump copies). The cursor is not moved past events it does not
 *   match until a round comes for another reason or they fill a pump's batch
 *   (1,000), so it never lags far and the check never reads far.
 * - reclaim: a lease that expired, or whose consumer's advisory lock is gone.
 * - lease: a message free, pending and due, and first of its ordering key with
 *   no lease on its key: es_consume's own leasing rule (so a replayed parked
 *   message counts, and a key waiting on an in-flight message does not).
 * - supersede: a parked message of a key that a pending message of a
 *   superseding type has not passed yet.
 * - the group is gone: the loop reloads its settings only around a round,
 *   and that reload ends the subscription with SUBSCRIPTION_GROUP_NOT_FOUND.
 *
 * A false yes costs one round, as before; a false no would delay a delivery,
 * so every case has a test (idle-check.int.spec.ts). One snapshot and now()
 * serve every case, so a retry is either due or counted in nextRetryInMs.
 * The statement writes nothing, so PostgreSQL gives it no transaction id.
 *
 * @example
 * const answer = await checkBeforeRound(db, groupId);
 * if (!answer.roundWanted) sleepFor(answer.idle);
 */
export async function checkBeforeRound(
  db: Kysely<EventStoreTables>,
  groupId: number,
): Promise<IdleCheck> {
  const { rows } = await sql<{
    round_wanted: boolean;
    held_back: boolean;
    xmin: string;
    next_retry_in_ms: number | null;
  }>`SELECT * FROM es_round_wanted(${groupId})`.execute(db);
  const row = rows[0];
  if (row === undefined || row.round_wanted) return { roundWanted: true };
  return {
    roundWanted: false,
    idle: { heldBack: row.held_back, xmin: row.xmin, nextRetryInMs: row.next_retry_in_ms },
  };
}
