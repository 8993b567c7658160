// Leases on a group's messages: what becomes of a delivery when it is
// settled or its consumer closes. Leasing itself, and freeing the leases of
// consumers that timed out or died, happen in es_consume (consume.ts).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { NackAction } from '@effectively-once/event-store/port/subscription';
import type { EventStoreTables } from './event-store.tables.js';
import type { EventRow } from './read.js';

/**
 * First key of every consumer's session advisory lock ('ES' 0001); the second
 * key is the consumer id. The lock lives exactly as long as the consumer's
 * connection: PostgreSQL releases it when the session ends, however it ends.
 */
export const CONSUMER_LOCK_NAMESPACE = 0x45530001;
/** First key of the lock that makes one consumer the single one of a dispatch_to_single group. */
export const LEADER_LOCK_NAMESPACE = 0x45530002;
/**
 * First key of the shared lock every consumer of a group holds on its session
 * (the second key is the group id): the group's live consumers are the
 * sessions holding it, which is how they share out the notifications
 * (wake-choice.ts).
 */
export const MEMBER_LOCK_NAMESPACE = 0x45530003;

export interface LeasedRow extends EventRow {
  deliveries: number;
}

/**
 * One lease of one message: its position and the delivery count it was
 * leased with. Each lease adds one to the count, so the count tells this
 * lease from a later one the same consumer took after this one ran out.
 */
export interface LeaseOf {
  position: number;
  deliveries: number;
}

/**
 * Only the lease holder settles. A settlement applies to the row only while
 * no other lease holds it: still this consumer's lease with the count it was
 * leased with, or nobody's (the lease ran out and no one took the message
 * yet; an ack may then delete it, the work being done). A consumer whose
 * lease ran out and was taken over settles nothing: the new holder's work
 * must keep the key, or the next message of the key would run beside it
 * (docs/event-store.md, known difference 15). The same rule is written in
 * es_consume (migration 2026-12-04T00-00) for acks that ride with a round.
 */
export function heldBy(
  consumerId: number,
  deliveries: number | RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`(m.lease_consumer IS NULL
              OR (m.lease_consumer = ${consumerId} AND m.deliveries = ${deliveries}))`;
}

/** The park rule of nack('retry') and a closing consumer; es_consume applies the same to timeouts and dead consumers. */
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
 * Skipped (an ack goes through ack-batch.ts with the same rule): the group is
 * done with this message, unless another lease holds it now (see `heldBy`).
 */
export async function settleDone(
  db: Kysely<EventStoreTables>,
  input: { groupId: number; consumerId: number; lease: LeaseOf },
): Promise<void> {
  await sql`
    DELETE FROM es_subscription_message m
     WHERE m.group_id = ${input.groupId} AND m.global_position = ${input.lease.position}
       AND ${heldBy(input.consumerId, input.lease.deliveries)}`.execute(db);
}

/**
 * A negative acknowledgment. Only the current lease holder's counts: a
 * consumer whose lease expired and was taken over (by another consumer, or by
 * itself again) must not undo the new one; one whose lease expired and was
 * freed has nothing left to undo.
 */
export async function settleNack(
  db: Kysely<EventStoreTables>,
  input: {
    groupId: number;
    consumerId: number;
    lease: LeaseOf;
    action: NackAction;
    reason: string;
    /** `retry` only: the message stays in the store, unleasable, this long. */
    retryAfterMs: number | undefined;
    /** `retry` only: false gives back the delivery es_consume counted when it leased the message. */
    counted: boolean;
  },
): Promise<void> {
  const { groupId, consumerId, lease, action, reason } = input;
  if (action === 'skip') return settleDone(db, { groupId, consumerId, lease });
  const notBefore = sql`not_before = now() + ${input.retryAfterMs ?? 0} * interval '1 millisecond'`;
  const set =
    action === 'park'
      ? sql`lease_consumer = NULL, lease_expires_at = NULL, status = 'parked', park_reason = ${reason}`
      : input.counted
        ? sql`${releaseSet(sql`${reason}`)}, ${notBefore}`
        : // Never parked for this delivery: the count goes back to what it was
          // before the lease, so the next lease brings it to the same number.
          sql`lease_consumer = NULL, lease_expires_at = NULL, status = 'pending', park_reason = NULL,
              deliveries = m.deliveries - 1, ${notBefore}`;
  await sql`
    UPDATE es_subscription_message m SET ${set}
      FROM es_subscription_group g
     WHERE m.group_id = ${groupId} AND m.global_position = ${lease.position}
       AND m.lease_consumer = ${consumerId} AND m.deliveries = ${lease.deliveries}
       AND g.group_id = m.group_id`.execute(db);
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
