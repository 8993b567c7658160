// Moves the group's share of the global order into its message table, in one
// statement: events after the group's cursor, below the snapshot's xmin, that
// match its filter. Copying and advancing the cursor commit together, so each
// event enters the group exactly once; SKIP LOCKED lets one consumer pump
// while the others go on leasing.
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';

const PUMP_BATCH = 1000;

interface Pumped {
  scanned: number;
  copied: number;
}

async function pumpOnce(db: Kysely<EventStoreTables>, groupId: number): Promise<Pumped> {
  const { rows } = await sql<Pumped>`
    WITH g AS (
      SELECT group_id, filter_kind, filter_values, cursor_transaction_id, cursor_global_position,
             ordering_key_from, ordering_key_field
        FROM es_subscription_group WHERE group_id = ${groupId}
         FOR UPDATE SKIP LOCKED
    ), batch AS (
      -- LATERAL, so the cursor reaches the index as a bound instead of a
      -- filter applied to every event ever stored.
      SELECT e.* FROM g CROSS JOIN LATERAL (
        SELECT e.transaction_id, e.global_position, e.stream_name, e.event_type,
               -- The ordering key is fixed when the message enters the group.
               CASE g.ordering_key_from
                 WHEN 'stream' THEN e.stream_name
                 WHEN 'metadata' THEN e.metadata ->> g.ordering_key_field
                 WHEN 'data' THEN e.data ->> g.ordering_key_field
               END AS ordering_key
          FROM es_event e
         WHERE (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
           AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         ORDER BY e.transaction_id, e.global_position
         LIMIT ${PUMP_BATCH}
      ) e
    ), copied AS (
      INSERT INTO es_subscription_message (group_id, global_position, ordering_key)
      SELECT g.group_id, b.global_position, b.ordering_key FROM g, batch b
       WHERE CASE g.filter_kind
               WHEN 'all' THEN true
               WHEN 'stream_prefix' THEN EXISTS (SELECT 1 FROM unnest(g.filter_values) p WHERE starts_with(b.stream_name, p))
               ELSE b.event_type = ANY(g.filter_values)
             END
       ORDER BY b.transaction_id, b.global_position
      ON CONFLICT DO NOTHING
      RETURNING 1
    ), last AS (
      SELECT transaction_id, global_position FROM batch
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1
    ), moved AS (
      UPDATE es_subscription_group grp
         SET cursor_transaction_id = last.transaction_id, cursor_global_position = last.global_position
        FROM last WHERE grp.group_id = ${groupId}
      RETURNING 1
    )
    -- Data-modifying CTEs run to completion whether or not they are read.
    SELECT (SELECT count(*) FROM batch)::int AS scanned, (SELECT count(*) FROM copied)::int AS copied
  `.execute(db);
  return rows[0] ?? { scanned: 0, copied: 0 };
}

/**
 * Pumps until the group has caught up with the stable part of the log (or
 * another consumer holds the group's row and is pumping it). Returns how many
 * messages entered the group.
 */
export async function pumpGroup(db: Kysely<EventStoreTables>, groupId: number): Promise<number> {
  let copied = 0;
  for (;;) {
    const pumped = await pumpOnce(db, groupId);
    copied += pumped.copied;
    // A full batch: there may be more.
    if (pumped.scanned < PUMP_BATCH) return copied;
  }
}

/** What an idle consumer needs to know to choose how long it may sleep. */
export interface IdleState {
  /**
   * Events its filter matches exist after the group's cursor: after a pump,
   * which copies everything below the snapshot's xmin, those were held back
   * by an older transaction (or committed since). An older transaction that
   * writes no event sends no notification when it ends, so the consumer must
   * look again itself, but only once the xmin has moved.
   */
  heldBack: boolean;
  /** The snapshot's xmin now, as text: what "has it moved?" compares. */
  xmin: string;
  /** Milliseconds until the group's earliest scheduled retry is due; null when none is waiting. */
  nextRetryInMs: number | null;
}

/**
 * One statement, asked when a consumer found nothing to lease. Both probes
 * are index lookups bounded by the cursor (the log's history is never
 * scanned) and by the group's unsettled messages.
 */
/** The idle check's statement, on its own so a test can EXPLAIN it. */
export function idleStateQuery(groupId: number) {
  return sql<IdleState>`
    SELECT EXISTS (
             SELECT 1 FROM es_subscription_group g CROSS JOIN LATERAL (
               SELECT 1 FROM es_event e
                WHERE (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
                  AND CASE g.filter_kind
                        WHEN 'all' THEN true
                        WHEN 'stream_prefix' THEN EXISTS (SELECT 1 FROM unnest(g.filter_values) p WHERE starts_with(e.stream_name, p))
                        ELSE e.event_type = ANY(g.filter_values)
                      END
                -- In index order, so a probe that finds nothing stops at the
                -- cursor's bound instead of scanning the whole log.
                ORDER BY e.transaction_id, e.global_position
                LIMIT 1) x
              WHERE g.group_id = ${groupId}) AS "heldBack",
           pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
           (SELECT ceil(extract(epoch FROM min(m.not_before) - clock_timestamp()) * 1000)::int
              FROM es_subscription_message m
             WHERE m.group_id = ${groupId} AND m.status = 'pending' AND m.lease_consumer IS NULL
               AND m.not_before > clock_timestamp()) AS "nextRetryInMs"`;
}

export async function loadIdleState(
  db: Kysely<EventStoreTables>,
  groupId: number,
): Promise<IdleState> {
  const { rows } = await idleStateQuery(groupId).execute(db);
  const row = rows[0];
  if (row === undefined) throw new Error('The idle check returned no row.');
  return row;
}

/** The snapshot's xmin alone: the cheap question a consumer waiting on held-back events asks. */
export async function loadXmin(db: Kysely<EventStoreTables>): Promise<string> {
  const { rows } = await sql<{
    xmin: string;
  }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(db);
  return rows[0]?.xmin ?? '';
}
