import { idempotencyMigrations } from '@effectively-once/idempotency';
import { outboxMigrations } from '@effectively-once/outbox';
import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import { inventoryMigrations } from './migrations/index.js';

/** Everything the inventory database needs: markers, outbox, and the service's own tables. */
export const inventoryDatabaseMigrations: Migrations = combineMigrations(
  idempotencyMigrations,
  outboxMigrations,
  inventoryMigrations,
);
