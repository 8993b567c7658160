import { idempotencyMigrations } from '@effectively-once/idempotency';
import { outboxMigrations } from '@effectively-once/outbox';
import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import { notificationMigrations } from './migrations/index.js';

/** Everything the notification database needs: markers, outbox, and the service's own tables. */
export const notificationDatabaseMigrations: Migrations = combineMigrations(
  idempotencyMigrations,
  outboxMigrations,
  notificationMigrations,
);
