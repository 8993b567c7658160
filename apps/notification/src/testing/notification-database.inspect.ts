// What the tests read back from the notification database: the rows each
// step of the handler leaves, per order or per message.
import { notificationStream } from '@effectively-once/contracts';
import type { Kysely } from 'kysely';
import type { NotificationDatabase } from '../adapters/postgres/database.js';
import { notificationEmail } from '../notification-email/notification-email.handler.js';

type Db = Kysely<NotificationDatabase>;

export const notificationsOf = (db: Db, orderId: string) =>
  db.selectFrom('notification').selectAll().where('order_id', '=', orderId).execute();

export const intentsOf = (db: Db, orderId: string) =>
  db.selectFrom('notification_intent').selectAll().where('order_id', '=', orderId).execute();

export const outboxOf = (db: Db, orderId: string) =>
  db
    .selectFrom('outbox')
    .selectAll()
    .where('stream_name', '=', notificationStream(orderId))
    .execute();

export const markersOf = (db: Db, messageId: string) =>
  db
    .selectFrom('processed_message')
    .selectAll()
    .where('consumer_name', '=', notificationEmail.name)
    .where('message_id', '=', messageId)
    .execute();
