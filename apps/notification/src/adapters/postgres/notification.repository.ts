import type { Kysely, Transaction } from 'kysely';
import type { NotificationDatabase } from './database.js';
import type { NotificationKind } from '../../domain/notification.js';
import type { NewNotification, Notification } from './notification.table.js';

type Db = Kysely<NotificationDatabase> | Transaction<NotificationDatabase>;

/**
 * Records a notification. A plain insert, on purpose: a second one for the
 * same (order, kind) raises a unique violation on `notification_pkey`, which
 * the consumer declares as its business key (a duplicate, recorded once).
 */
export async function insertNotification(db: Db, notification: NewNotification): Promise<void> {
  await db.insertInto('notification').values(notification).execute();
}

/** Whether the email for (order, kind) is recorded as sent. */
export async function isNotificationRecorded(
  db: Db,
  key: { orderId: string; kind: NotificationKind },
): Promise<boolean> {
  const row = await db
    .selectFrom('notification')
    .select('order_id')
    .where('order_id', '=', key.orderId)
    .where('kind', '=', key.kind)
    .executeTakeFirst();
  return row !== undefined;
}

/** The notifications sent for one order, oldest first. */
export async function listNotifications(db: Db, orderId: string): Promise<Notification[]> {
  return db
    .selectFrom('notification')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('sent_at')
    .orderBy('kind')
    .execute();
}
