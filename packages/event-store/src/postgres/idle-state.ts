// What an idle consumer knows after a round that leased nothing (reported by
// es_consume, see consume.ts), and the two questions it asks while it waits:
// on held-back events, has the horizon (es_horizon, ADR 0027) moved? At a
// poll, would a round do anything at all?
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';
import { CONSUMER_LOCK_NAMESPACE } from './leases.js';

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

/** How far past the cursor the check reads before it lets a round move the cursor. */
const EVENTS_AHEAD_READ = 1000;

/**
 * Before a poll round nothing asked for (no notification, no acknowledgment
 * to carry), one read-only statement asks whether the round would do
 * anything; only a yes costs the round, which takes the group's row FOR UPDATE
 * and commits. It asks for a superset of what es_consume (the latest in
 * migrations/) would do, case by case:
 *
 * - pump: events its filter matches after the cursor, below the horizon (the
 *   ones a pump copies). Events it does not match are left behind the cursor
 *   until a round comes for another reason, or until they fill a pump's batch,
 *   so the cursor never lags far and the check never reads far.
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
  }>`
    WITH g AS (
      SELECT * FROM es_subscription_group WHERE group_id = ${groupId}
    ), horizon AS MATERIALIZED (
      SELECT es_horizon() AS xid
    ), ahead AS MATERIALIZED (
      -- Ordered by transaction id, as a pump reads: below the horizon comes first.
      SELECT e.transaction_id < h.xid AS below_horizon,
             CASE g.filter_kind
               WHEN 'all' THEN true
               WHEN 'stream_prefix' THEN EXISTS (SELECT 1 FROM unnest(g.filter_values) p WHERE starts_with(e.stream_name, p))
               ELSE e.event_type = ANY(g.filter_values)
             END AS matched
        FROM g CROSS JOIN horizon h CROSS JOIN LATERAL (
          SELECT e.transaction_id, e.stream_name, e.event_type FROM es_event e
           WHERE (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
           ORDER BY e.transaction_id, e.global_position
           LIMIT ${EVENTS_AHEAD_READ}
        ) e
    ), live AS (
      SELECT l.objid::bigint AS consumer_id FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
         AND l.classid::bigint = ${CONSUMER_LOCK_NAMESPACE}
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    )
    SELECT
      NOT EXISTS (SELECT 1 FROM g)
      OR EXISTS (SELECT 1 FROM ahead WHERE below_horizon AND matched)
      OR (SELECT count(*) FROM ahead) >= ${EVENTS_AHEAD_READ}
      OR EXISTS (
        SELECT 1 FROM es_subscription_message m
         WHERE m.group_id = ${groupId} AND m.lease_consumer IS NOT NULL
           AND (m.lease_expires_at <= now() OR m.lease_consumer::bigint NOT IN (SELECT consumer_id FROM live)))
      OR EXISTS (
        SELECT 1 FROM es_subscription_message m
         WHERE m.group_id = ${groupId} AND m.status = 'pending' AND m.lease_consumer IS NULL
           AND (m.not_before IS NULL OR m.not_before <= now())
           AND (m.ordering_key IS NULL OR (NOT EXISTS (
                 SELECT 1 FROM es_subscription_message p
                  WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                    AND p.message_seq < m.message_seq AND p.superseded_by IS NULL)
               AND NOT EXISTS (
                 SELECT 1 FROM es_subscription_message p
                  WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                    AND p.lease_consumer IS NOT NULL))))
      OR EXISTS (
        SELECT 1 FROM g, es_subscription_message p
         WHERE cardinality(g.supersede_parked_with) > 0
           AND p.group_id = g.group_id AND p.status = 'parked'
           AND p.ordering_key IS NOT NULL AND p.superseded_by IS NULL
           AND EXISTS (
             SELECT 1 FROM es_subscription_message m JOIN es_event e ON e.global_position = m.global_position
              WHERE m.group_id = p.group_id AND m.ordering_key = p.ordering_key
                AND m.message_seq > p.message_seq AND m.status = 'pending'
                AND e.event_type = ANY(g.supersede_parked_with)))
        AS round_wanted,
      EXISTS (SELECT 1 FROM ahead WHERE matched AND NOT below_horizon) AS held_back,
      (SELECT xid::text FROM horizon) AS xmin,
      (SELECT ceil(extract(epoch FROM min(m.not_before) - now()) * 1000)::int
         FROM es_subscription_message m
        WHERE m.group_id = ${groupId} AND m.status = 'pending' AND m.lease_consumer IS NULL
          AND m.not_before > now()) AS next_retry_in_ms`.execute(db);
  const row = rows[0];
  if (row === undefined || row.round_wanted) return { roundWanted: true };
  return {
    roundWanted: false,
    idle: { heldBack: row.held_back, xmin: row.xmin, nextRetryInMs: row.next_retry_in_ms },
  };
}
