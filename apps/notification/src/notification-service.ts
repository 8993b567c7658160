// The notification service as one declaration: server.ts runs it with
// runService (docs/service-bootstrap.md), and the component test starts this
// very declaration with startService, so the test runs the consumer, the
// relay and their settings exactly as the service does. Every saga service
// has this file (ADR 0038).
import type { ServiceDeclaration } from '@effectively-once/service-kit';
import type { NotificationDatabase } from './adapters/postgres/database.js';
import { notificationDatabaseMigrations } from './adapters/postgres/notification-migrations.js';
import type { Mailer } from './adapters/smtp/mailer.js';
import { buildApp } from './app.js';
import type { NotificationConfig } from './config.js';
import { notificationEmailConsumer } from './notification-email/notification-email.consumer.js';

/**
 * @example
 * await runService<NotificationDatabase>(notificationService({ config, mailer }));
 */
export function notificationService(input: {
  config: NotificationConfig;
  mailer: Mailer;
  /** The service's clock; the system clock unless a test fixes it. */
  now?: () => Date;
}): ServiceDeclaration<NotificationDatabase> {
  const { config, mailer } = input;
  return {
    config,
    migrations: notificationDatabaseMigrations,
    buildApp: ({ db, store, metrics }) =>
      buildApp({ db, store, metrics, logLevel: config.logLevel }),
    consumers: (context) => [notificationEmailConsumer({ ...context, mailer })],
    outbox: { relay: true },
    // Closed after HTTP: an operator's replay through /admin sends with it too.
    clients: [mailer],
    ...(input.now === undefined ? {} : { now: input.now }),
  };
}
