import type { ColumnType, Kysely, Selectable, Transaction } from 'kysely';

/**
 * One row per (consumer, message) whose work committed. Written in the same
 * transaction as that work, so the row exists exactly when the effect does.
 */
export interface ProcessedMessageTable {
  consumer_name: string;
  message_id: string;
  processed_at: ColumnType<Date, Date | undefined, never>;
}

export type ProcessedMessage = Selectable<ProcessedMessageTable>;

/** The tables this package needs; a service's Database interface extends it. */
export interface IdempotencyTables {
  processed_message: ProcessedMessageTable;
}

/**
 * Views a service's database through the marker table alone. Kysely's types
 * are invariant in the database type, so `Kysely<InventoryDatabase>` is not
 * assignable to `Kysely<IdempotencyTables>` even though it has that table.
 */
export function markerView<Database extends IdempotencyTables>(
  db: Kysely<Database>,
): Kysely<IdempotencyTables>;
export function markerView<Database extends IdempotencyTables>(
  db: Transaction<Database>,
): Transaction<IdempotencyTables>;
export function markerView(db: unknown): unknown {
  return db;
}
