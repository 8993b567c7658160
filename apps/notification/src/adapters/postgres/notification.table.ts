import type { Insertable, Selectable } from 'kysely';
import type { NotificationKind } from '../../domain/notification.js';

/**
 * One row per email sent: (order_id, kind) is the business key. It is
 * inserted after the SMTP server accepted the email, in processOnce's
 * transaction with the marker and the outbox event, so "recorded as sent" and
 * the message's marker commit together. A second message for the same fact
 * finds it before sending, or meets its constraint `notification_pkey`.
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
