// The inventory service's composition root: `node --import tsx apps/inventory/src/server.ts`.
// Loads the settings and runs the service's declaration (inventory-service.ts);
// runService opens, starts, serves and shuts it down (docs/service-bootstrap.md).
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
import { serviceLineageRoute } from '@effectively-once/service-kit/lineage';
// lab:end
import type { InventoryDatabase } from './adapters/postgres/database.js';
import { loadInventoryConfig } from './config.js';
import { inventoryService } from './inventory-service.js';

await runService<InventoryDatabase>({
  ...inventoryService({ config: loadInventoryConfig() }),
  // lab:begin
  // Only the lab's console asks it (ADR 0019).
  routes: [serviceLineageRoute()],
  extension: openFaultInjection,
  // lab:end
});
