import type { EventMetadataInput, JsonValue } from '@effectively-once/event-store';
import type { ColumnType, Generated, Kysely, Selectable, Transaction } from 'kysely';

/**
 * One event waiting to be appended to the event store, written in the same
 * transaction as the business change it reports. `sent_at` is set only after
 * the store accepted the event, so an unsent row is an event not yet known to
 * be published; it may still have been appended once (see docs/outbox.md).
 */
export interface OutboxTable {
  /** Publication order: rows of one stream are appended in this order. */
  position: Generated<number>;
  /** The event id in the store, fixed when the row is written so every re-append reuses it. */
  event_id: string;
  stream_name: string;
  event_type: string;
  /** Written as JSON text, read back parsed. */
  data: ColumnType<JsonValue, string, never>;
  metadata: ColumnType<EventMetadataInput, string | undefined, never>;
  created_at: ColumnType<Date, never, never>;
  sent_at: ColumnType<Date | null, never, Date | null>;
}

export type OutboxRow = Selectable<OutboxTable>;

/** The tables this package needs; a service's Database interface extends it. */
export interface OutboxTables {
  outbox: OutboxTable;
}

/**
 * Views a service's database through the outbox table alone. Kysely's types
 * are invariant in the database type, so `Kysely<OrderDatabase>` is not
 * assignable to `Kysely<OutboxTables>` even though it has that table.
 *
 * @example
 * const pending = await outboxView(db).selectFrom('outbox').select('event_id').execute();
 */
export function outboxView<Database extends OutboxTables>(
  db: Kysely<Database>,
): Kysely<OutboxTables>;
export function outboxView<Database extends OutboxTables>(
  db: Transaction<Database>,
): Transaction<OutboxTables>;
export function outboxView(db: unknown): unknown {
  return db;
}
