// The notification service's composition root: `node --import tsx apps/notification/src/server.ts`.
// A declaration; runService opens, starts, serves and shuts it down
// (docs/service-bootstrap.md).
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
// lab:end
import type { NotificationDatabase } from './adapters/postgres/database.js';
import { notificationDatabaseMigrations } from './adapters/postgres/notification-migrations.js';
import { createSmtpMailer } from './adapters/smtp/mailer.js';
import { buildApp } from './app.js';
import { loadNotificationConfig } from './config.js';
import { notificationEmailConsumer } from './workers.js';

const config = loadNotificationConfig();
const mailer = createSmtpMailer({
  host: config.SMTP_HOST,
  port: config.SMTP_PORT,
  timeoutMs: config.SMTP_TIMEOUT_MS,
});

await runService<NotificationDatabase>({
  config,
  migrations: notificationDatabaseMigrations,
  buildApp: ({ db, store, metrics }) => buildApp({ db, store, metrics, logLevel: config.logLevel }),
  consumers: (context) => [notificationEmailConsumer({ ...context, mailer })],
  outbox: { relay: true },
  // Closed after HTTP: an operator's replay through /admin sends with it too.
  clients: [mailer],
  // lab:begin
  lab: openFaultInjection,
  // lab:end
});
