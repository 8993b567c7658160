import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';
import type { InventoryOrderTable } from './inventory-order.table.js';
import type { InventoryReservationTable } from './inventory-reservation.table.js';
import type { InventoryTable } from './inventory.table.js';
import type { RestockRequestTable } from './restock-request.table.js';
import type { SkuDemandTable } from './sku-demand.table.js';

/** Every table of the inventory database: its own, the markers and the outbox. */
export interface InventoryDatabase extends IdempotencyTables, OutboxTables {
  inventory: InventoryTable;
  inventory_reservation: InventoryReservationTable;
  inventory_order: InventoryOrderTable;
  sku_demand: SkuDemandTable;
  restock_request: RestockRequestTable;
}
