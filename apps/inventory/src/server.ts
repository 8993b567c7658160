// Composition root: the one place that reads the configuration, opens
// connections and starts the consumer, the outbox relay and the HTTP server.
// Run: `node --import tsx apps/inventory/src/server.ts`.
import { CONSUMERS } from '@effectively-once/contracts';
import { countMarkers } from '@effectively-once/idempotency';
import { startOutboxRelay } from '@effectively-once/outbox';
import { connect, migrateToLatest } from '@effectively-once/postgres';
import {
  createServiceMetrics,
  onShutdownSignal,
  openServiceEventStore,
  startConsumer,
  registerParkedMessageRoutes,
} from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from './adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from './adapters/postgres/inventory-database-migrations.js';
import {
  handleOrderEvent,
  INVENTORY_RESERVATION_EVENTS,
} from './adapters/subscriptions/inventory-reservation.consumer.js';
import { buildApp } from './app.js';
import { loadInventoryConfig } from './config.js';

const config = loadInventoryConfig();
const db = connect<InventoryDatabase>(config.databaseUrl, { applicationName: config.service });
await migrateToLatest(db as Kysely<unknown>, inventoryDatabaseMigrations);
const store = openServiceEventStore(config);
const metrics = createServiceMetrics({ service: config.service });
const now = (): Date => new Date();
const app = buildApp({ db, store, metrics, logLevel: config.logLevel });
registerParkedMessageRoutes(app, {
  store,
  consumer: CONSUMERS.inventoryReservation,
  adminToken: config.adminToken,
});

metrics.trackMarkerRows({
  consumer: CONSUMERS.inventoryReservation,
  count: () => countMarkers(db, CONSUMERS.inventoryReservation),
});
const consumer = startConsumer({
  store,
  consumer: CONSUMERS.inventoryReservation,
  eventTypes: INVENTORY_RESERVATION_EVENTS,
  handle: (event, recorded) =>
    handleOrderEvent({ db, now, onOutcome: metrics.consumerOutcome }, event, recorded),
  metrics,
  log: app.log,
});
const relay = startOutboxRelay({ db, store, log: app.log, databaseUrl: config.databaseUrl });

await app.listen({ host: config.host, port: config.port });
app.log.info(`inventory listening on http://${config.host}:${String(config.port)}`);

onShutdownSignal({
  log: app.log,
  close: async () => {
    await consumer.close();
    await relay.close();
    await app.close();
    await store.close();
    await db.destroy();
  },
});
