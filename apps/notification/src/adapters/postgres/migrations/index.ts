import type { Migrations } from '@effectively-once/postgres';
import * as createNotification from './2026-12-01T00-40-create-notification.js';
import * as createNotificationIntent from './2026-12-12T00-00-create-notification-intent.js';
import * as holdNotificationIntentPerAttempt from './2026-12-13T00-00-hold-notification-intent-per-attempt.js';

/** The notification service's own tables; server.ts combines them with the marker and outbox tables. */
export const notificationMigrations: Migrations = {
  '2026-12-01T00-40-create-notification': createNotification,
  '2026-12-12T00-00-create-notification-intent': createNotificationIntent,
  '2026-12-13T00-00-hold-notification-intent-per-attempt': holdNotificationIntentPerAttempt,
};
