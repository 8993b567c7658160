// Moves the group's share of the global order into its message table, in one
// statement: events after the group's cursor, below the snapshot's xmin, that
// match its filter. Copying and advancing the cursor commit together, so each
// event enters the group exactly once; SKIP LOCKED lets one consumer pump
// while the others go on leasing.
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';

const PUMP_BATCH = 1000;

async function pumpOnce(db: Kysely<EventStoreTables>, groupId: number): Promise<number> {
  const { rows } = await sql<{ scanned: number }>`
    WITH g AS (
      SELECT group_id, filter_kind, filter_values, cursor_transaction_id, cursor_global_position
        FROM es_subscription_group WHERE group_id = ${groupId}
         FOR UPDATE SKIP LOCKED
    ), batch AS (
      -- LATERAL, so the cursor reaches the index as a bound instead of a
      -- filter applied to every event ever stored.
      SELECT e.* FROM g CROSS JOIN LATERAL (
        SELECT e.transaction_id, e.global_position, e.stream_name, e.event_type
          FROM es_event e
         WHERE (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
           AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         ORDER BY e.transaction_id, e.global_position
         LIMIT ${PUMP_BATCH}
      ) e
    ), copied AS (
      INSERT INTO es_subscription_message (group_id, global_position)
      SELECT g.group_id, b.global_position FROM g, batch b
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
    SELECT count(*)::int AS scanned FROM batch
  `.execute(db);
  return rows[0]?.scanned ?? 0;
}

/**
 * Pumps until the group has caught up with the stable part of the log (or
 * another consumer holds the group's row and is pumping it).
 */
export async function pumpGroup(db: Kysely<EventStoreTables>, groupId: number): Promise<void> {
  while ((await pumpOnce(db, groupId)) === PUMP_BATCH) {
    // A full batch: there may be more.
  }
}

/**
 * True when events after the group's cursor exist. Asked right after a pump,
 * which copies everything below the snapshot's xmin, so what it finds was
 * held back by an older transaction or committed since: the consumer should
 * look again soon rather than wait for a notification that an older
 * transaction writing no event never sends (see `hasUnreadEvents` in read.ts).
 */
export async function groupHasUnpumpedEvents(
  db: Kysely<EventStoreTables>,
  groupId: number,
): Promise<boolean> {
  const { rows } = await sql<{ unpumped: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM es_subscription_group g, es_event e
       WHERE g.group_id = ${groupId}
         AND (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
    ) AS unpumped`.execute(db);
  return rows[0]?.unpumped ?? false;
}
