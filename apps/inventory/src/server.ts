// Composition root: the one place that reads the configuration, opens
// connections and starts the consumer, the outbox relay and the HTTP server.
// Run: `node --import tsx apps/inventory/src/server.ts`.
import { CONSUMERS } from '@effectively-once/contracts';
import { countMarkers, markerView } from '@effectively-once/idempotency';
import { outboxView, startOutboxRelay } from '@effectively-once/outbox';
import { connect, migrateToLatest } from '@effectively-once/postgres';
import { openFaultInjection, relayFaultPoint } from '@effectively-once/fault-injection';
import {
  consumerSettings,
  createServiceMetrics,
  onShutdownSignal,
  openServiceEventStore,
  registerConsumerOperationRoutes,
  registerParkedMessageRoutes,
  startConsumer,
  type ConsumerHandler,
} from '@effectively-once/service-kit';
import { registerLineageRoute } from '@effectively-once/service-kit/lineage';
import type { Kysely } from 'kysely';
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
const db = connect<InventoryDatabase>(config.databaseUrl, { applicationName: config.service });
await migrateToLatest(db as Kysely<unknown>, inventoryDatabaseMigrations);
const store = openServiceEventStore(config);
const metrics = createServiceMetrics({ service: config.service });
const now = (): Date => new Date();
const app = buildApp({ db, store, metrics, logLevel: config.logLevel });
registerParkedMessageRoutes(app, {
  store,
  consumers: [CONSUMERS.inventoryReservation, CONSUMERS.inventoryDemand],
  adminToken: config.adminToken,
});
registerLineageRoute(app, {
  service: 'inventory',
  consumers: [
    { consumer: CONSUMERS.inventoryReservation, eventTypes: INVENTORY_RESERVATION_EVENTS },
    { consumer: CONSUMERS.inventoryDemand, eventTypes: INVENTORY_DEMAND_EVENTS },
  ],
  markers: markerView(db),
  outbox: outboxView(db),
});
// Lab mode only (FAULTS_ENABLED + FAULTS_TOKEN); undefined, and nothing of it, otherwise.
const lab = await openFaultInjection({
  service: config.service,
  config: config.faults,
  db,
  log: app.log,
});
lab?.registerRoutes(app);
const handleReservation: ConsumerHandler = (event, recorded) =>
  handleOrderEvent({ db, now, onOutcome: metrics.consumerOutcome }, event, recorded);
const handleDemand: ConsumerHandler = (event, recorded) =>
  handleDemandEvent({ db, onOutcome: metrics.consumerOutcome }, event, recorded);
registerConsumerOperationRoutes(app, {
  db,
  store,
  adminToken: config.adminToken,
  consumers: [
    { consumer: inventoryReservation, handle: handleReservation },
    { consumer: inventoryDemand, handle: handleDemand },
  ],
});

metrics.trackMarkerRows({
  consumer: CONSUMERS.inventoryReservation,
  count: () => countMarkers(db, CONSUMERS.inventoryReservation),
});
const consumer = startConsumer({
  store,
  consumer: CONSUMERS.inventoryReservation,
  eventTypes: INVENTORY_RESERVATION_EVENTS,
  // Releasing a cancelled order's stock is a compensation: a transient failure
  // is retried until it succeeds, never parked for that (ADR 0015).
  compensations: ['OrderCancellationRequested'],
  handle: handleReservation,
  metrics,
  log: app.log,
  hooks: lab,
  ...consumerSettings(config),
});
metrics.trackMarkerRows({
  consumer: CONSUMERS.inventoryDemand,
  count: () => countMarkers(db, CONSUMERS.inventoryDemand),
});
const demandConsumer = startConsumer({
  store,
  consumer: CONSUMERS.inventoryDemand,
  eventTypes: INVENTORY_DEMAND_EVENTS,
  handle: handleDemand,
  metrics,
  log: app.log,
  hooks: lab,
  ...consumerSettings(config),
});
const relay = config.OUTBOX_RELAY
  ? startOutboxRelay({
      db,
      store,
      log: app.log,
      databaseUrl: config.databaseUrl,
      afterAppend: relayFaultPoint(lab),
    })
  : undefined;

await app.listen({ host: config.host, port: config.port });
app.log.info(`inventory listening on http://${config.host}:${String(config.port)}`);

onShutdownSignal({
  log: app.log,
  close: async () => {
    await lab?.close();
    await consumer.close();
    await demandConsumer.close();
    await relay?.close();
    await app.close();
    await store.close();
    await db.destroy();
  },
});
