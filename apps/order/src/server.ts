// The order service's composition root: `node --import tsx apps/order/src/server.ts`.
import { CONSUMERS } from '@effectively-once/contracts';
import { idempotencyMigrations } from '@effectively-once/idempotency';
import { combineMigrations, connect, migrateToLatest } from '@effectively-once/postgres';
import { openFaultInjection } from '@effectively-once/fault-injection';
import {
  consumerSettings,
  createServiceMetrics,
  onShutdownSignal,
  openServiceEventStore,
  registerConsumerOperationRoutes,
  registerParkedMessageRoutes,
} from '@effectively-once/service-kit';
import { registerOrderLineageRoute } from './adapters/http/order-lineage.routes.js';
import { orderMigrations } from './adapters/postgres/migrations/index.js';
import type { OrderDatabase } from './adapters/postgres/order.database.js';
import { orderSagaHandler, startOrderSaga } from './adapters/subscriptions/order-saga.consumer.js';
import { orderSaga } from './adapters/subscriptions/order-saga.handler.js';
import { startDeadlineTimer } from './adapters/timers/deadline-timer.js';
import { buildApp } from './app.js';
import { loadOrderConfig } from './config.js';

const config = loadOrderConfig();
// Migrated through a short-lived connection of its own, typed for no tables in particular.
const migrations = connect(config.databaseUrl, {
  maxConnections: 1,
  applicationName: 'order-migrations',
});
try {
  await migrateToLatest(migrations, combineMigrations(idempotencyMigrations, orderMigrations));
} finally {
  await migrations.destroy();
}
const db = connect<OrderDatabase>(config.databaseUrl, { applicationName: 'order' });
const store = openServiceEventStore(config);
const metrics = createServiceMetrics({ service: config.service });
const deps = { db, store, metrics, now: (): Date => new Date(), deadlines: config.deadlines };
const app = buildApp(deps, { logLevel: config.logLevel });
registerParkedMessageRoutes(app, {
  store,
  consumers: [CONSUMERS.orderSaga],
  adminToken: config.adminToken,
});
registerOrderLineageRoute(app, { db });
// Lab mode only (FAULTS_ENABLED + FAULTS_TOKEN); undefined, and nothing of it, otherwise.
const lab = await openFaultInjection({
  service: config.service,
  config: config.faults,
  db,
  log: app.log,
});
lab?.registerRoutes(app);
registerConsumerOperationRoutes(app, {
  db,
  store,
  adminToken: config.adminToken,
  consumers: [{ consumer: orderSaga, handle: orderSagaHandler(deps) }],
});
const consumer = startOrderSaga({
  deps,
  log: app.log,
  hooks: lab,
  settings: consumerSettings(config),
});
// The saga's deadlines: timer rows in this database, fired by every running instance.
const deadlineTimer = startDeadlineTimer({
  deps: { db, store, now: deps.now, log: app.log },
  pollMs: config.timerPollMs,
});

await app.listen({ host: config.host, port: config.port });
app.log.info(`order listening on http://${config.host}:${String(config.port)}`);

onShutdownSignal({
  log: app.log,
  close: async () => {
    await lab?.close();
    await consumer.close();
    await deadlineTimer.close();
    await app.close();
    await store.close();
    await db.destroy();
  },
});
