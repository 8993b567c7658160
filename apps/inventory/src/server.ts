// The inventory service's composition root: `node --import tsx apps/inventory/src/server.ts`.
// A declaration; runService opens, starts, serves and shuts it down
// (docs/service-bootstrap.md).
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
import { serviceLineageRoute } from '@effectively-once/service-kit/lineage';
// lab:end
import type { InventoryDatabase } from './adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from './adapters/postgres/inventory-database-migrations.js';
import {
  handleDemandEvent,
  INVENTORY_DEMAND_EVENTS,
  inventoryDemand,
} from './adapters/subscriptions/inventory-demand.consumer.js';
import {
  handleOrderEvent,
  INVENTORY_RESERVATION_EVENTS,
  inventoryReservation,
} from './adapters/subscriptions/inventory-reservation.consumer.js';
import { buildApp } from './app.js';
import { loadInventoryConfig } from './config.js';

const config = loadInventoryConfig();

await runService<InventoryDatabase>({
  config,
  migrations: inventoryDatabaseMigrations,
  buildApp: ({ db, store, metrics }) => buildApp({ db, store, metrics, logLevel: config.logLevel }),
  consumers: ({ db, now, metrics }) => [
    {
      consumer: inventoryReservation,
      eventTypes: INVENTORY_RESERVATION_EVENTS,
      // Releasing a cancelled order's stock is a compensation: a transient failure
      // is retried until it succeeds, never parked for that (ADR 0015).
      compensations: ['OrderCancellationRequested'],
      // One processOnce per delivery, nothing outside it: deliveries may share a transaction (ADR 0036).
      batchable: true,
      handle: (event, recorded) =>
        handleOrderEvent({ db, now, onOutcome: metrics.consumerOutcome }, event, recorded),
    },
    {
      consumer: inventoryDemand,
      eventTypes: INVENTORY_DEMAND_EVENTS,
      batchable: true,
      handle: (event, recorded) =>
        handleDemandEvent({ db, onOutcome: metrics.consumerOutcome }, event, recorded),
    },
  ],
  // OUTBOX_RELAY=false: this instance leaves publishing to another (the lab's inventory-2).
  outbox: { relay: config.OUTBOX_RELAY },
  // lab:begin
  // Only the lab's console asks it (ADR 0019).
  routes: [serviceLineageRoute()],
  extension: openFaultInjection,
  // lab:end
});
