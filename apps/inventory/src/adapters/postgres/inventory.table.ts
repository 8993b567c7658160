import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Stock of one SKU. `available` can be reserved; `reserved` is held for
 * orders not yet confirmed or cancelled. Both are non-negative by CHECK, so an
 * oversell is a failed statement, never a negative count. `stocked` counts
 * every unit ever restocked: with the SKU's consumed reservation lines,
 * available + reserved + consumed = stocked.
 */
export interface InventoryTable {
  sku: string;
  available: number;
  reserved: number;
  stocked: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type Inventory = Selectable<InventoryTable>;
export type NewInventory = Insertable<InventoryTable>;
export type InventoryUpdate = Updateable<InventoryTable>;
