import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { NotificationKind } from '../../domain/notification.js';

/**
 * The intent to send one email, committed in a short transaction of its own
 * before the SMTP send (step 1 of the handler), so that no transaction stays
 * open across the send. It names the Message-ID every send of this email
 * carries and the attempt sending it (one run of the handler for one
 * delivery), with that attempt's message; the email counts as sent only once
 * its `notification` row commits with the marker (step 3).
 */
export interface NotificationIntentTable {
  order_id: string;
  kind: NotificationKind;
  /** The Message-ID header of every send, angle brackets included. */
  email_message_id: string;
  /** The message whose delivery holds the intent, or last held it. */
  held_by_message_id: string;
  /** The attempt holding the intent; null once an attempt that failed let go of it. */
  held_by_attempt: string | null;
  held_since: Date;
  created_at: ColumnType<Date, Date, never>;
}

export type NotificationIntent = Selectable<NotificationIntentTable>;
export type NewNotificationIntent = Insertable<NotificationIntentTable>;
