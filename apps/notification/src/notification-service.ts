// The notification service as one declaration: server.ts runs it with
// runService, and the component test starts this very declaration with
// startService, so the test runs the consumer, the relay and their settings
// exactly as the service does.
import type {
  DeclaredConsumer,
  ServiceContext,
  ServiceDeclaration,
} from '@effectively-once/service-kit';
import type { NotificationDatabase } from './adapters/postgres/database.js';
import { notificationDatabaseMigrations } from './adapters/postgres/notification-migrations.js';
import type { Mailer } from './adapters/smtp/mailer.js';
import {
  handleNotificationEmail,
  notificationEmail,
} from './adapters/subscriptions/notification-email.handler.js';
import { NOTIFICATION_EMAIL_EVENTS } from './domain/notification.decide.js';
import { buildApp } from './app.js';
import type { NotificationConfig } from './config.js';

/** notification-email-v1 as the service declares it: the subscription and the operator's replay run this handler. */
export function notificationEmailConsumer(
  context: Pick<ServiceContext<NotificationDatabase>, 'db' | 'now' | 'metrics' | 'steps'> & {
    mailer: Mailer;
  },
): DeclaredConsumer {
  const { db, mailer, now, metrics, steps } = context;
  return {
    consumer: notificationEmail,
    eventTypes: NOTIFICATION_EMAIL_EVENTS,
    handle: (event, recorded) =>
      handleNotificationEmail(
        { db, mailer, now, onOutcome: metrics.consumerOutcome, steps },
        event,
        recorded,
      ),
  };
}

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
