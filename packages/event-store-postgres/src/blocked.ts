// What waits behind what: for a group with an ordering key, each pending
// message that an earlier, unsettled message of its key holds back, and the
// state of the one that holds it. An operator's view; leasing never reads it.
import { sql, type Kysely } from 'kysely';
import type {
  BlockedMessage,
  BlockingState,
} from '@effectively-once/event-store/port/subscription';
import type { EventStoreTables } from './event-store.tables.js';
import { loadGroup } from './groups.js';
import { EVENT_COLUMNS, toRecordedEvent, type EventRow } from './read.js';

const LIST_LIMIT = 1000;

interface BlockedRow extends EventRow {
  ordering_key: string;
  blocker_id: string;
  blocker_type: string;
  blocker_state: BlockingState;
  blocker_not_before: Date | null;
}

/**
 * @example
 * for (const { event, blockedBy } of await listBlocked(db, 'payment-v1')) console.log(event.id, 'waits for', blockedBy.eventId);
 */
export async function listBlocked(
  db: Kysely<EventStoreTables>,
  group: string,
): Promise<BlockedMessage[]> {
  const { group_id } = await loadGroup(db, group);
  const { rows } = await sql<BlockedRow>`
    SELECT m.ordering_key, b.event_id::text AS blocker_id, b.event_type AS blocker_type,
           b.state AS blocker_state, b.not_before AS blocker_not_before, ${EVENT_COLUMNS}
      FROM es_subscription_message m
      JOIN es_event e ON e.global_position = m.global_position
     CROSS JOIN LATERAL (
       SELECT be.event_id, be.event_type, h.not_before,
              CASE WHEN h.status = 'parked' THEN 'parked'
                   WHEN h.lease_consumer IS NOT NULL THEN 'in_flight'
                   WHEN h.not_before > now() THEN 'retry_scheduled'
                   ELSE 'queued' END AS state
         FROM es_subscription_message h JOIN es_event be ON be.global_position = h.global_position
        WHERE h.group_id = m.group_id AND h.ordering_key = m.ordering_key
          AND h.message_seq < m.message_seq AND h.superseded_by IS NULL
        ORDER BY h.message_seq LIMIT 1
     ) b
     WHERE m.group_id = ${group_id} AND m.status = 'pending' AND m.ordering_key IS NOT NULL
     ORDER BY m.message_seq
     LIMIT ${LIST_LIMIT}`.execute(db);
  return rows.map((row) => ({
    event: toRecordedEvent(row),
    orderingKey: row.ordering_key,
    blockedBy: {
      eventId: row.blocker_id,
      eventType: row.blocker_type,
      state: row.blocker_state,
      ...(row.blocker_state === 'retry_scheduled' && row.blocker_not_before !== null
        ? { notBefore: row.blocker_not_before }
        : {}),
    },
  }));
}
