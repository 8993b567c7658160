// Composition root: the one place that reads the configuration, opens
// connections and starts the workers and the HTTP server.
// Run: `node --import tsx apps/notification/src/server.ts`.
import { CONSUMERS } from '@effectively-once/contracts';
import { markerView } from '@effectively-once/idempotency';
import { outboxView } from '@effectively-once/outbox';
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
} from '@effectively-once/service-kit';
import { registerLineageRoute } from '@effectively-once/service-kit/lineage';
import type { Kysely } from 'kysely';
import type { NotificationDatabase } from './adapters/postgres/database.js';
import { notificationDatabaseMigrations } from './adapters/postgres/notification-migrations.js';
import { createSmtpMailer } from './adapters/smtp/mailer.js';
import { buildApp } from './app.js';
import { loadNotificationConfig } from './config.js';
import {
  NOTIFICATION_EMAIL_EVENTS,
  notificationEmail,
} from './adapters/subscriptions/notification-email.handler.js';
import { notificationEmailHandler, startWorkers } from './workers.js';

const config = loadNotificationConfig();
const db = connect<NotificationDatabase>(config.databaseUrl, { applicationName: config.service });
// Kysely is invariant in its database type; the migrator needs none of it.
await migrateToLatest(db as Kysely<unknown>, notificationDatabaseMigrations);
const store = openServiceEventStore(config);
const metrics = createServiceMetrics({ service: config.service });
const mailer = createSmtpMailer({
  host: config.SMTP_HOST,
  port: config.SMTP_PORT,
  timeoutMs: config.SMTP_TIMEOUT_MS,
});
const app = buildApp({ db, store, metrics, logLevel: config.logLevel });
registerParkedMessageRoutes(app, {
  store,
  consumers: [CONSUMERS.notificationEmail],
  adminToken: config.adminToken,
});
registerLineageRoute(app, {
  service: 'notification',
  consumers: [{ consumer: CONSUMERS.notificationEmail, eventTypes: NOTIFICATION_EMAIL_EVENTS }],
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
const now = (): Date => new Date();
const faults = lab ?? noFaults;
registerConsumerOperationRoutes(app, {
  db,
  store,
  adminToken: config.adminToken,
  consumers: [
    {
      consumer: notificationEmail,
      handle: notificationEmailHandler({ db, mailer, now, metrics, faults }),
    },
  ],
});
const workers = startWorkers({
  db,
  databaseUrl: config.databaseUrl,
  store,
  mailer,
  metrics,
  log: app.log,
  now,
  faults,
  hooks: lab,
  afterAppend: relayFaultPoint(lab),
  consumer: consumerSettings(config),
});

await app.listen({ host: config.host, port: config.port });
app.log.info(`notification listening on http://${config.host}:${String(config.port)}`);

onShutdownSignal({
  log: app.log,
  close: async () => {
    await lab?.close();
    await workers.close();
    await app.close();
    mailer.close();
    await store.close();
    await db.destroy();
  },
});
