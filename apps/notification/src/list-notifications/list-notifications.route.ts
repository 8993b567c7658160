import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { NotificationDatabase } from '../adapters/postgres/database.js';
import type { Notification } from '../adapters/postgres/notification.table.js';
import { listNotifications } from '../adapters/postgres/notification.repository.js';
import {
  ListNotificationsQuery,
  NotificationList,
  type SentNotification,
} from '@effectively-once/contracts';

const toSentNotification = (row: Notification): SentNotification => ({
  orderId: row.order_id,
  kind: row.kind,
  emailMessageId: row.email_message_id,
  recipient: row.recipient,
  sentAt: row.sent_at.toISOString(),
});

/**
 * GET /notifications?orderId= : the emails sent for one order (none yet: an
 * empty list, not a 404, since the order may simply not be final).
 */
export function registerListNotificationsRoute(
  app: FastifyZodInstance,
  deps: { db: Kysely<NotificationDatabase> },
): void {
  app.get(
    '/notifications',
    { schema: { querystring: ListNotificationsQuery, response: { 200: NotificationList } } },
    async (request) => {
      const rows = await listNotifications(deps.db, request.query.orderId);
      return { notifications: rows.map(toSentNotification) };
    },
  );
}
