// Subscription groups: their settings and their cursor into the global order.
import { sql, type Kysely } from 'kysely';
import { SubscriptionGroupError } from '@effectively-once/event-store/port/errors';
import {
  assertGroupName,
  parseGroupChanges,
  parseGroupSettings,
  isTimeStart,
  type ConsumerStrategy,
  type OrderingKey,
  type StartFrom,
  type SubscriptionFilter,
  type SubscriptionGroupChanges,
  type SubscriptionGroupSettings,
  type TimeStart,
} from '@effectively-once/event-store/port/subscription';
import type { EventStoreTables } from './event-store.tables.js';

export interface GroupRow {
  group_id: number;
  max_retry_count: number;
  message_timeout_ms: number;
  max_in_flight: number;
  consumer_strategy: ConsumerStrategy;
  /** What the consumer's connection listens for (es_consume reads the rest of the group itself). */
  filter: SubscriptionFilter;
  /** Its messages wait behind earlier ones of their key: an ack may be what a successor waits for. */
  ordered: boolean;
}

/** The ordering key's columns; all NULL (and no supersede types) for a group without one. */
function orderingKeyColumns(orderingKey: OrderingKey | null | undefined) {
  if (orderingKey === undefined || orderingKey === null) {
    return { ordering_key_from: null, ordering_key_field: null, supersede_parked_with: [] };
  }
  const { source } = orderingKey;
  return {
    ordering_key_from: source.from,
    ordering_key_field: source.from === 'stream' ? null : source.field,
    supersede_parked_with: [...orderingKey.supersedeParkedWith],
  };
}

function toFilter(kind: string, values: string[]): SubscriptionFilter {
  if (kind === 'stream_prefix') return { kind, prefixes: values };
  if (kind === 'event_type') return { kind, types: values };
  return { kind: 'all' };
}

/**
 * The cursor a new group starts with; the group receives the events after it.
 * `end` is the snapshot's xmin: transactions still running at creation commit
 * after it, so their events count as new, even when their positions are lower.
 */
function initialCursor(startFrom: Exclude<StartFrom, TimeStart>) {
  if (startFrom === 'start') return sql`'0'::xid8, 0`;
  if (startFrom === 'end') return sql`(SELECT es_horizon()), 0`;
  // Inclusive, as in EventStoreDB: start just before the given position.
  return sql`${startFrom.commit.toString()}::xid8, ${(startFrom.prepare - 1n).toString()}::bigint`;
}

function exists(group: string): SubscriptionGroupError {
  return new SubscriptionGroupError(
    'SUBSCRIPTION_GROUP_EXISTS',
    `Subscription group "${group}" already exists.`,
  );
}

/**
 * The cursor of a group that starts at a time: the last event recorded before
 * it, found walking es_event_global_order_idx backwards, so the walk reads the
 * events since that time, not the log's whole history. No such event: from
 * the start. Never above the snapshot's xmin, as for `end`: a transaction
 * still running commits after the cursor. Checked for an existing group
 * first, since every service start asks to create its group again.
 */
async function cursorBefore(db: Kysely<EventStoreTables>, group: string, since: Date) {
  const existing = await db
    .selectFrom('es_subscription_group')
    .select('group_id')
    .where('group_name', '=', group)
    .executeTakeFirst();
  if (existing !== undefined) throw exists(group);
  const { rows } = await sql<{ transaction_id: string; global_position: string }>`
    WITH last_old AS (
      SELECT e.transaction_id, e.global_position FROM es_event e
       WHERE e.created_at < ${since}
       ORDER BY e.transaction_id DESC, e.global_position DESC
       LIMIT 1
    ), candidate AS (
      SELECT transaction_id, global_position FROM last_old
      UNION ALL
      SELECT '0'::xid8, 0::bigint WHERE NOT EXISTS (SELECT 1 FROM last_old)
    )
    SELECT c.transaction_id::text AS transaction_id, c.global_position::text AS global_position
      FROM (SELECT transaction_id, global_position FROM candidate
            UNION ALL
            SELECT es_horizon(), 0::bigint) c
     ORDER BY c.transaction_id, c.global_position
     LIMIT 1`.execute(db);
  const [cursor] = rows;
  if (cursor === undefined) throw new Error('The cursor query returned no row.');
  return sql`${cursor.transaction_id}::xid8, ${cursor.global_position}::bigint`;
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
  const key = orderingKeyColumns(settings.orderingKey);
  const { startFrom } = settings;
  const cursor = isTimeStart(startFrom)
    ? await cursorBefore(db, group, startFrom.recordedAtOrAfter)
    : initialCursor(startFrom);
  const { rows } = await sql<{ group_id: number }>`
    INSERT INTO es_subscription_group (group_name, filter_kind, filter_values, max_retry_count, message_timeout_ms,
                                       max_in_flight, consumer_strategy, ordering_key_from, ordering_key_field,
                                       supersede_parked_with, cursor_transaction_id, cursor_global_position)
    VALUES (${group}, ${filter.kind}, ${[...values]}::text[], ${settings.maxRetryCount}, ${settings.messageTimeoutMs},
            ${settings.maxInFlight}, ${settings.consumerStrategy}, ${key.ordering_key_from}, ${key.ordering_key_field},
            ${key.supersede_parked_with}::text[], ${cursor})
    ON CONFLICT (group_name) DO NOTHING
    RETURNING group_id`.execute(db);
  if (rows.length === 0) throw exists(group);
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
      // Messages already in the group keep the key they were given when they
      // entered it; the new key applies to the ones that enter from now on.
      ...(changes.orderingKey === undefined ? {} : orderingKeyColumns(changes.orderingKey)),
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
      'filter_kind',
      'filter_values',
      'ordering_key_from',
    ])
    .where('group_name', '=', group)
    .executeTakeFirst();
  if (row === undefined) throw notFound(group);
  const { filter_kind, filter_values, ordering_key_from, ...rest } = row;
  return {
    ...rest,
    consumer_strategy: row.consumer_strategy as ConsumerStrategy,
    filter: toFilter(filter_kind, filter_values),
    ordered: ordering_key_from !== null,
  };
}
