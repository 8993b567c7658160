import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';
import type { NotificationIntentTable } from './notification-intent.table.js';
import type { NotificationTable } from './notification.table.js';

/** Every table of the notification database: its own, the markers and the outbox. */
export interface NotificationDatabase extends IdempotencyTables, OutboxTables {
  notification: NotificationTable;
  notification_intent: NotificationIntentTable;
}
