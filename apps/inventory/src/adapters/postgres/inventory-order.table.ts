import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { InventoryOrderStatus } from '../../domain/inventory-order.js';

/**
 * What this service decided for one order, and the order-stream revision of
 * the last event that changed it: the state the transition rule reads. Its
 * primary key, `inventory_order_pkey`, is a business key too: one decision per order.
 */
export interface InventoryOrderTable {
  order_id: string;
  status: InventoryOrderStatus;
  order_version: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type InventoryOrderRow = Selectable<InventoryOrderTable>;
export type NewInventoryOrderRow = Insertable<InventoryOrderTable>;
