import { idempotencyMigrations } from '@effectively-once/idempotency';
import { outboxMigrations } from '@effectively-once/outbox';
import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import { paymentMigrations } from './migrations/index.js';

/** Everything the payment database holds: consumer markers, the outbox and the payment tables. */
export const paymentDatabaseMigrations: Migrations = combineMigrations(
  idempotencyMigrations,
  outboxMigrations,
  paymentMigrations,
);
