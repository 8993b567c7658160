// Parked messages: set aside by nack('park') or past maxRetryCount, kept with
// their reason until an operator replays them. A replay re-queues the same
// row, so the event keeps its id and an idempotent consumer still sees a duplicate
// as a duplicate.
import { sql, type Kysely } from 'kysely';
import type { ParkedMessage } from '@effectively-once/event-store/port/subscription';
import { APPENDED_CHANNEL, groupChannel } from './append-channels.js';
import type { EventStoreTables } from './event-store.tables.js';
import { loadGroup } from './groups.js';
import { EVENT_COLUMNS, toRecordedEvent, type EventRow } from './read.js';

/**
 * @example
 * for (const { event, reason } of await listParked(db, 'inventory-reservation-v1')) console.log(event.id, reason);
 */
export async function listParked(
  db: Kysely<EventStoreTables>,
  group: string,
): Promise<ParkedMessage[]> {
  const { group_id } = await loadGroup(db, group);
  const { rows } = await sql<
    EventRow & {
      park_reason: string | null;
      superseded_by: string | null;
      superseded_by_type: string | null;
    }
  >`
    SELECT m.park_reason, m.superseded_by::text AS superseded_by, m.superseded_by_type, ${EVENT_COLUMNS}
      FROM es_subscription_message m JOIN es_event e ON e.global_position = m.global_position
     WHERE m.group_id = ${group_id} AND m.status = 'parked'
     ORDER BY m.message_seq`.execute(db);
  return rows.map((row) => ({
    event: toRecordedEvent(row),
    reason: row.park_reason ?? undefined,
    ...(row.superseded_by === null
      ? {}
      : { supersededBy: { eventId: row.superseded_by, eventType: row.superseded_by_type ?? '' } }),
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every parked message of the group, or only those whose event id is listed. */
function selected(eventIds: readonly string[] | undefined) {
  if (eventIds === undefined) return sql`true`;
  // Event ids are UUIDs here: any other string names no event, and must not fail the cast.
  const ids = eventIds.filter((id) => UUID.test(id));
  return sql`global_position IN (SELECT e.global_position FROM es_event e
                                  WHERE e.event_id = ANY(${ids}::uuid[]))`;
}

/**
 * Makes the parked messages (all, or those of `eventIds`) deliverable again,
 * retry count back at zero, and wakes the consumers (on the general channel
 * and the group's own, append-channels.ts). A superseded one is
 * replayed too: it then comes back in its place in its key's order, before
 * the later messages still waiting.
 *
 * @example
 * await replayParked(db, 'inventory-demand-v1', [eventId]);
 */
export async function replayParked(
  db: Kysely<EventStoreTables>,
  group: string,
  eventIds?: readonly string[],
): Promise<void> {
  const { group_id } = await loadGroup(db, group);
  await sql`
    WITH replayed AS (
      UPDATE es_subscription_message
         SET status = 'pending', deliveries = 0, park_reason = NULL, not_before = NULL,
             superseded_by = NULL, superseded_by_type = NULL
       WHERE group_id = ${group_id} AND status = 'parked' AND ${selected(eventIds)}
      RETURNING 1
    )
    SELECT pg_notify(${APPENDED_CHANNEL}, ''), pg_notify(${groupChannel(group_id)}, '')
     WHERE EXISTS (SELECT 1 FROM replayed)`.execute(db);
}
