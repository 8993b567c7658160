// Leases on a group's messages: who holds a delivery, until when, and what
// becomes of it when it is settled, times out, or its consumer dies.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { NackAction } from '../port/subscription.js';
import type { EventStoreTables } from './event-store.tables.js';
import { EVENT_COLUMNS, type EventRow } from './read.js';

/**
 * First key of every consumer's session advisory lock ('ES' 0001); the second
 * key is the consumer id. The lock lives exactly as long as the consumer's
 * connection: PostgreSQL releases it when the session ends, however it ends.
 */
export const CONSUMER_LOCK_NAMESPACE = 0x45530001;
/** First key of the lock that makes one consumer the single one of a dispatch_to_single group. */
export const LEADER_LOCK_NAMESPACE = 0x45530002;

export interface LeasedRow extends EventRow {
  deliveries: number;
}

/** The park rule, shared by nack('retry'), timeouts and dead consumers. */
const OVER_LIMIT = sql`m.deliveries > g.max_retry_count`;

function releaseSet(reason: RawBuilder<unknown>) {
  return sql`
    lease_consumer = NULL, lease_expires_at = NULL,
    status = CASE WHEN ${OVER_LIMIT} THEN 'parked' ELSE 'pending' END,
    park_reason = CASE WHEN ${OVER_LIMIT}
                  THEN 'delivered ' || m.deliveries || ' times, more than maxRetryCount allows; last: ' || ${reason}
                  END`;
}

/**
 * Frees the leases that expired or whose consumer's advisory lock is gone (its
 * connection ended: the process died or closed). Each freed message is
 * delivered again with a higher retry count, or parked past maxRetryCount.
 */
export async function reclaimLeases(
  db: Kysely<EventStoreTables>,
  groupId: number,
): Promise<number> {
  const result = await sql`
    WITH live AS (
      SELECT l.objid::bigint AS consumer_id FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
         AND l.classid::bigint = ${CONSUMER_LOCK_NAMESPACE}
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    ), stale AS (
      SELECT m.global_position, m.lease_expires_at <= now() AS expired FROM es_subscription_message m
       WHERE m.group_id = ${groupId} AND m.lease_consumer IS NOT NULL
         AND (m.lease_expires_at <= now() OR m.lease_consumer::bigint NOT IN (SELECT consumer_id FROM live))
         FOR UPDATE SKIP LOCKED
    )
    UPDATE es_subscription_message m
       SET ${releaseSet(sql`CASE WHEN s.expired THEN 'message timeout' ELSE 'consumer connection ended' END`)}
      FROM stale s, es_subscription_group g
     WHERE m.group_id = ${groupId} AND m.global_position = s.global_position AND g.group_id = m.group_id`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Leases up to `limit` free messages of the group, oldest first, to
 * `consumerId`. Free: pending, not leased, its scheduled retry due, and no
 * earlier message of its ordering key still unsettled (in flight, waiting for
 * its retry, queued or parked and not superseded). Acknowledged messages are
 * deleted, so "an earlier row of my key exists" is the whole rule, and it
 * holds across consumers: the earlier row is visible whether or not another
 * consumer has it locked.
 */
export async function leaseMessages(
  db: Kysely<EventStoreTables>,
  input: { groupId: number; consumerId: number; limit: number },
): Promise<LeasedRow[]> {
  const { rows } = await sql<LeasedRow & { message_seq: number }>`
    WITH picked AS (
      SELECT m.global_position FROM es_subscription_message m
       WHERE m.group_id = ${input.groupId} AND m.status = 'pending' AND m.lease_consumer IS NULL
         AND (m.not_before IS NULL OR m.not_before <= now())
         AND (m.ordering_key IS NULL OR NOT EXISTS (
               SELECT 1 FROM es_subscription_message p
                WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                  AND p.message_seq < m.message_seq AND p.superseded_by IS NULL))
       ORDER BY m.message_seq LIMIT ${input.limit}
         FOR UPDATE SKIP LOCKED
    ), leased AS (
      UPDATE es_subscription_message m
         SET lease_consumer = ${input.consumerId}, deliveries = m.deliveries + 1, not_before = NULL,
             lease_expires_at = now() + g.message_timeout_ms * interval '1 millisecond'
        FROM picked p, es_subscription_group g
       WHERE m.group_id = ${input.groupId} AND m.global_position = p.global_position AND g.group_id = m.group_id
      RETURNING m.global_position, m.deliveries, m.message_seq
    )
    SELECT l.deliveries, l.message_seq, ${EVENT_COLUMNS}
      FROM leased l JOIN es_event e ON e.global_position = l.global_position
     ORDER BY l.message_seq`.execute(db);
  return rows;
}

/** Acknowledged (or skipped): the group is done with this message, whoever holds it now. */
export async function settleDone(
  db: Kysely<EventStoreTables>,
  groupId: number,
  position: number,
): Promise<void> {
  await db
    .deleteFrom('es_subscription_message')
    .where('group_id', '=', groupId)
    .where('global_position', '=', position)
    .execute();
}

/**
 * A negative acknowledgment. Only the current lease holder's counts: a
 * consumer whose lease expired and was taken over must not undo the new one.
 */
export async function settleNack(
  db: Kysely<EventStoreTables>,
  input: {
    groupId: number;
    consumerId: number;
    position: number;
    action: NackAction;
    reason: string;
    /** `retry` only: the message stays in the store, unleasable, this long. */
    retryAfterMs: number | undefined;
  },
): Promise<void> {
  const { groupId, consumerId, position, action, reason } = input;
  if (action === 'skip') return settleDone(db, groupId, position);
  const set =
    action === 'park'
      ? sql`lease_consumer = NULL, lease_expires_at = NULL, status = 'parked', park_reason = ${reason}`
      : sql`${releaseSet(sql`${reason}`)},
            not_before = now() + ${input.retryAfterMs ?? 0} * interval '1 millisecond'`;
  await sql`
    UPDATE es_subscription_message m SET ${set}
      FROM es_subscription_group g
     WHERE m.group_id = ${groupId} AND m.global_position = ${position}
       AND m.lease_consumer = ${consumerId} AND g.group_id = m.group_id`.execute(db);
}

/**
 * On a graceful close: hand this consumer's unsettled messages back at once,
 * as a dead one's would be. Messages leased but never handed to the handler
 * (`unseen`) were not really delivered: they go back without counting the
 * delivery, so a clean shutdown can never push one past maxRetryCount.
 */
export async function releaseConsumerLeases(
  db: Kysely<EventStoreTables>,
  input: { groupId: number; consumerId: number; unseen: readonly number[] },
): Promise<void> {
  if (input.unseen.length > 0) {
    await sql`
      UPDATE es_subscription_message m
         SET lease_consumer = NULL, lease_expires_at = NULL, deliveries = m.deliveries - 1
       WHERE m.group_id = ${input.groupId} AND m.lease_consumer = ${input.consumerId}
         AND m.global_position = ANY(${[...input.unseen]}::bigint[])`.execute(db);
  }
  await sql`
    UPDATE es_subscription_message m SET ${releaseSet(sql`'consumer closed'`)}
      FROM es_subscription_group g
     WHERE m.group_id = ${input.groupId} AND m.lease_consumer = ${input.consumerId}
       AND g.group_id = m.group_id`.execute(db);
}

/**
 * Lets the group's superseding types pass parked messages: a parked message
 * with a later pending message of its key whose type is one of
 * `supersedeTypes` is marked superseded by the earliest such message, and
 * stops blocking its key. It stays parked (an operator still sees it, and
 * what passed it) and can still be replayed. Returns how many were passed.
 */
export async function supersedeParked(
  db: Kysely<EventStoreTables>,
  input: { groupId: number; supersedeTypes: readonly string[] },
): Promise<number> {
  if (input.supersedeTypes.length === 0) return 0;
  const result = await sql`
    WITH passed AS (
      SELECT p.global_position, s.event_id, s.event_type FROM es_subscription_message p
       CROSS JOIN LATERAL (
         SELECT e.event_id, e.event_type FROM es_subscription_message m
           JOIN es_event e ON e.global_position = m.global_position
          WHERE m.group_id = p.group_id AND m.ordering_key = p.ordering_key
            AND m.message_seq > p.message_seq AND m.status = 'pending'
            AND e.event_type = ANY(${[...input.supersedeTypes]}::text[])
          ORDER BY m.message_seq LIMIT 1
       ) s
       WHERE p.group_id = ${input.groupId} AND p.status = 'parked'
         AND p.ordering_key IS NOT NULL AND p.superseded_by IS NULL
    )
    UPDATE es_subscription_message t
       SET superseded_by = passed.event_id, superseded_by_type = passed.event_type
      FROM passed
     WHERE t.group_id = ${input.groupId} AND t.global_position = passed.global_position`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0n);
}
