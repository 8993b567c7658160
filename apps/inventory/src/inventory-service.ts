// The inventory service as one declaration: server.ts runs it with
// runService (docs/service-bootstrap.md), and a test can start this very
// declaration with startService. Every saga service has this file (ADR 0038).
import type { ServiceDeclaration } from '@effectively-once/service-kit';
import type { InventoryDatabase } from './adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from './adapters/postgres/inventory-database-migrations.js';
import { buildApp } from './app.js';
import type { InventoryConfig } from './config.js';
import { inventoryDemandConsumer } from './inventory-demand/inventory-demand.consumer.js';
import { inventoryReservationConsumer } from './inventory-reservation/inventory-reservation.consumer.js';

/**
 * @example
 * await runService<InventoryDatabase>(inventoryService({ config: loadInventoryConfig() }));
 */
export function inventoryService(input: {
  config: InventoryConfig;
}): ServiceDeclaration<InventoryDatabase> {
  const { config } = input;
  return {
    config,
    migrations: inventoryDatabaseMigrations,
    buildApp: ({ db, store, metrics }) =>
      buildApp({ db, store, metrics, logLevel: config.logLevel }),
    consumers: (context) => [
      inventoryReservationConsumer(context),
      inventoryDemandConsumer(context),
    ],
    // OUTBOX_RELAY=false: this instance leaves publishing to another (the lab's inventory-2).
    outbox: { relay: config.OUTBOX_RELAY },
  };
}
