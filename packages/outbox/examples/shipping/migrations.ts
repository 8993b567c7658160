import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { outboxMigrations } from '../../src/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createParcel(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('parcel')
    .addColumn('parcel_id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('shipped_at', 'timestamptz', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dropParcel(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('parcel').execute();
}

/** The service's own migrations joined with the outbox's, run by migrateToLatest at start. */
export const shippingMigrations: Migrations = combineMigrations(outboxMigrations, {
  '2026-12-01T01-00-create-parcel': { up: createParcel, down: dropParcel },
});
