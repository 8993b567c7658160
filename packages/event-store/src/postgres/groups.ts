// Subscription groups: their settings and their cursor into the global order.
import { sql, type Kysely } from 'kysely';
import { SubscriptionGroupError } from '../port/errors.js';
import {
  assertGroupName,
  parseGroupChanges,
  parseGroupSettings,
  type ConsumerStrategy,
  type StartFrom,
  type SubscriptionGroupChanges,
  type SubscriptionGroupSettings,
} from '../port/subscription.js';
import type { EventStoreTables } from './event-store.tables.js';

export interface GroupRow {
  group_id: number;
  max_retry_count: number;
  message_timeout_ms: number;
  max_in_flight: number;
  consumer_strategy: ConsumerStrategy;
}

/**
 * The cursor a new group starts with; the group receives the events after it.
 * `end` is the snapshot's xmin: transactions still running at creation commit
 * after it, so their events count as new, even when their positions are lower.
 */
function initialCursor(startFrom: StartFrom) {
  if (startFrom === 'start') return sql`'0'::xid8, 0`;
  if (startFrom === 'end') return sql`pg_snapshot_xmin(pg_current_snapshot()), 0`;
  // Inclusive, as in EventStoreDB: start just before the given position.
  return sql`${startFrom.commit.toString()}::xid8, ${(startFrom.prepare - 1n).toString()}::bigint`;
}

function notFound(group: string): SubscriptionGroupError {
  return new SubscriptionGroupError(
    'SUBSCRIPTION_GROUP_NOT_FOUND',
    `Subscription group "${group}" does not exist; create it first with createSubscriptionGroup.`,
  );
}

/**
 * @example
 * await createGroup(db, 'inventory-reservation-v1', { filter: { kind: 'event_type', types: ['OrderPlaced'] } });
 */
export async function createGroup(
  db: Kysely<EventStoreTables>,
  group: string,
  input: Partial<SubscriptionGroupSettings> = {},
): Promise<void> {
  assertGroupName(group);
  const settings = parseGroupSettings(input);
  const { filter } = settings;
  const values =
    filter.kind === 'stream_prefix'
      ? filter.prefixes
      : filter.kind === 'event_type'
        ? filter.types
        : [];
  const { rows } = await sql<{ group_id: number }>`
    INSERT INTO es_subscription_group (group_name, filter_kind, filter_values, max_retry_count, message_timeout_ms,
                                       max_in_flight, consumer_strategy, cursor_transaction_id, cursor_global_position)
    VALUES (${group}, ${filter.kind}, ${[...values]}::text[], ${settings.maxRetryCount}, ${settings.messageTimeoutMs},
            ${settings.maxInFlight}, ${settings.consumerStrategy}, ${initialCursor(settings.startFrom)})
    ON CONFLICT (group_name) DO NOTHING
    RETURNING group_id`.execute(db);
  if (rows.length === 0) {
    throw new SubscriptionGroupError(
      'SUBSCRIPTION_GROUP_EXISTS',
      `Subscription group "${group}" already exists.`,
    );
  }
}

export async function updateGroup(
  db: Kysely<EventStoreTables>,
  group: string,
  input: SubscriptionGroupChanges,
): Promise<void> {
  assertGroupName(group);
  const changes = parseGroupChanges(input);
  const result = await db
    .updateTable('es_subscription_group')
    .set({
      ...(changes.maxRetryCount === undefined ? {} : { max_retry_count: changes.maxRetryCount }),
      ...(changes.messageTimeoutMs === undefined
        ? {}
        : { message_timeout_ms: changes.messageTimeoutMs }),
      ...(changes.maxInFlight === undefined ? {} : { max_in_flight: changes.maxInFlight }),
      ...(changes.consumerStrategy === undefined
        ? {}
        : { consumer_strategy: changes.consumerStrategy }),
    })
    .where('group_name', '=', group)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound(group);
}

/** Deletes the group with its pending and parked messages. */
export async function deleteGroup(db: Kysely<EventStoreTables>, group: string): Promise<void> {
  assertGroupName(group);
  const result = await db
    .deleteFrom('es_subscription_group')
    .where('group_name', '=', group)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound(group);
}

export async function loadGroup(db: Kysely<EventStoreTables>, group: string): Promise<GroupRow> {
  assertGroupName(group);
  const row = await db
    .selectFrom('es_subscription_group')
    .select([
      'group_id',
      'max_retry_count',
      'message_timeout_ms',
      'max_in_flight',
      'consumer_strategy',
    ])
    .where('group_name', '=', group)
    .executeTakeFirst();
  if (row === undefined) throw notFound(group);
  return { ...row, consumer_strategy: row.consumer_strategy as ConsumerStrategy };
}
