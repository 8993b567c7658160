// The payment service's composition root: `node --import tsx apps/payment/src/server.ts`.
import { CONSUMERS } from '@effectively-once/contracts';
import { countMarkers, markerView } from '@effectively-once/idempotency';
import { outboxView, startOutboxRelay } from '@effectively-once/outbox';
import { connect, migrateToLatest } from '@effectively-once/postgres';
import { openFaultInjection, relayFaultPoint } from '@effectively-once/fault-injection';
import {
  consumerSettings,
  createServiceMetrics,
  noFaults,
  onShutdownSignal,
  openServiceEventStore,
  registerConsumerOperationRoutes,
  registerParkedMessageRoutes,
  startConsumer,
  type ConsumerHandler,
} from '@effectively-once/service-kit';
import { registerLineageRoute } from '@effectively-once/service-kit/lineage';
import type { Kysely } from 'kysely';
import { buildApp } from './app.js';
import { loadPaymentConfig } from './config.js';
import type { PaymentDatabase } from './adapters/postgres/payment.database.js';
import { paymentDatabaseMigrations } from './adapters/postgres/payment.migrations.js';
import { createPaymentProviderClient } from './adapters/provider/payment-provider.client.js';
import {
  handlePaymentAuthorization,
  PAYMENT_AUTHORIZATION_EVENTS,
  PAYMENT_AUTHORIZATION_ORDERING,
  PAYMENT_MUST_COMPLETE,
} from './adapters/subscriptions/payment-authorization.handler.js';
import type { PaymentHandlerDeps } from './adapters/subscriptions/handler-deps.js';
import { paymentAuthorization } from './adapters/subscriptions/payment-authorization.consumer.js';

const config = loadPaymentConfig();
const db = connect<PaymentDatabase>(config.databaseUrl, { applicationName: 'payment' });
// Kysely is invariant in its database type; the migrator needs none of it.
await migrateToLatest(db as Kysely<unknown>, paymentDatabaseMigrations);
const store = openServiceEventStore(config);
const metrics = createServiceMetrics({ service: 'payment' });
const consumerName = CONSUMERS.paymentAuthorization;
metrics.trackMarkerRows({ consumer: consumerName, count: () => countMarkers(db, consumerName) });

const app = buildApp({ db, store, metrics, logLevel: config.logLevel });
registerParkedMessageRoutes(app, {
  store,
  consumers: [CONSUMERS.paymentAuthorization],
  adminToken: config.adminToken,
});
registerLineageRoute(app, {
  service: 'payment',
  consumers: [{ consumer: consumerName, eventTypes: PAYMENT_AUTHORIZATION_EVENTS }],
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
const handlerDeps: PaymentHandlerDeps = {
  db,
  provider: createPaymentProviderClient({
    baseUrl: config.PAYMENT_PROVIDER_URL,
    timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
  }),
  now: () => new Date(),
  onOutcome: metrics.consumerOutcome,
  faults: lab ?? noFaults,
};
const handle: ConsumerHandler = (event, recorded, attempt) =>
  handlePaymentAuthorization(handlerDeps, event, recorded, attempt);
registerConsumerOperationRoutes(app, {
  db,
  store,
  adminToken: config.adminToken,
  consumers: [{ consumer: paymentAuthorization, handle }],
});
const consumer = startConsumer({
  store,
  consumer: consumerName,
  eventTypes: PAYMENT_AUTHORIZATION_EVENTS,
  orderingKey: PAYMENT_AUTHORIZATION_ORDERING,
  compensations: PAYMENT_MUST_COMPLETE,
  handle,
  metrics,
  log: app.log,
  hooks: lab,
  ...consumerSettings(config),
});
const relay = startOutboxRelay({
  db,
  store,
  log: app.log,
  databaseUrl: config.databaseUrl,
  afterAppend: relayFaultPoint(lab),
});

await app.listen({ host: config.host, port: config.port });
app.log.info(`payment listening on http://${config.host}:${String(config.port)}`);

onShutdownSignal({
  log: app.log,
  close: async () => {
    await lab?.close();
    await consumer.close();
    await relay.close();
    await app.close();
    await store.close();
    await db.destroy();
  },
});
