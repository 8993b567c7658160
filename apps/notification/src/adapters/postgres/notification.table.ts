import type { Insertable, Selectable } from 'kysely';
import type { NotificationKind } from '../../domain/notification.js';

/**
 * One row per email sent: (order_id, kind) is the business key. It is
 * inserted before the email is sent, in the consumer's transaction, so a
 * second message for the same fact waits on it and then meets its constraint
 * `notification_pkey` instead of sending a second email.
 */
export interface NotificationTable {
  order_id: string;
  kind: NotificationKind;
  /** The Message-ID header the email went out with, angle brackets included. */
  email_message_id: string;
  recipient: string;
  sent_at: Date;
}

export type Notification = Selectable<NotificationTable>;
export type NewNotification = Insertable<NotificationTable>;

/** The constraint a unique violation names when the same notification is recorded twice. */
export const NOTIFICATION_BUSINESS_KEY = 'notification_pkey';
