// notification-email-v1 as the service declares it to runService: the
// subscription group, its filter and the operator's replay all come from
// this one entry (docs/service-bootstrap.md).
import type { DeclaredConsumer, ServiceContext } from '@effectively-once/service-kit';
import type { NotificationDatabase } from '../adapters/postgres/database.js';
import type { Mailer } from '../adapters/smtp/mailer.js';
import { NOTIFICATION_EMAIL_EVENTS } from '../domain/notification.decide.js';
import { handleNotificationEmail, notificationEmail } from './notification-email.handler.js';

/**
 * @example
 * consumers: (context) => [notificationEmailConsumer({ ...context, mailer })],
 */
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
