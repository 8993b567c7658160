import type { Migrations } from '@effectively-once/postgres';
import * as createInventory from './2026-12-01T00-20-create-inventory.js';
import * as createSkuDemand from './2026-12-02T00-00-create-sku-demand.js';
import * as addInventoryStocked from './2026-12-02T00-10-add-inventory-stocked.js';
import * as createRestockRequest from './2026-12-03T00-10-create-restock-request.js';

/** The inventory service's own tables; server.ts combines them with the marker and outbox tables. */
export const inventoryMigrations: Migrations = {
  '2026-12-01T00-20-create-inventory': createInventory,
  '2026-12-02T00-00-create-sku-demand': createSkuDemand,
  '2026-12-02T00-10-add-inventory-stocked': addInventoryStocked,
  '2026-12-03T00-10-create-restock-request': createRestockRequest,
};
