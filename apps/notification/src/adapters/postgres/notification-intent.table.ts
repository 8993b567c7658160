import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { NotificationKind } from '../../domain/notification.js';

/**
 * The intent to send one email, committed in a short transaction of its own
 * before the SMTP send (step 1 of the handler), so that no transaction stays
 * open across the send. It names the Message-ID every send of this email
 * carries and the message whose delivery is sending it; the email counts as
 * sent only once its `notification` row commits with the marker (step 3).
 */
export interface NotificationIntentTable {
  order_id: string;
  kind: NotificationKind;
  /** The Message-ID header of every send, angle brackets included. */
  email_message_id: string;
  held_by_message_id: string;
  held_since: Date;
  created_at: ColumnType<Date, Date, never>;
}

export type NotificationIntent = Selectable<NotificationIntentTable>;
export type NewNotificationIntent = Insertable<NotificationIntentTable>;
