import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { IdempotencyTables } from '../../src/index.js';

/** Stock of one SKU. Both counters are non-negative by CHECK constraint. */
export interface InventoryTable {
  sku: string;
  available: number;
  reserved: number;
}

/**
 * One reservation per (order, SKU): the business key. It stops a second
 * reservation of the same fact even when it arrives under a new message id.
 */
export interface InventoryReservationTable {
  order_id: string;
  sku: string;
  quantity: number;
  reserved_at: ColumnType<Date, Date | undefined, never>;
}

export type Inventory = Selectable<InventoryTable>;
export type NewInventory = Insertable<InventoryTable>;

export interface InventoryDatabase extends IdempotencyTables {
  inventory: InventoryTable;
  inventory_reservation: InventoryReservationTable;
}
