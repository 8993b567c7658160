import { sql, type Kysely } from 'kysely';
import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import { idempotencyMigrations } from '../../src/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('inventory')
    .addColumn('sku', 'text', (col) => col.primaryKey())
    .addColumn('available', 'bigint', (col) => col.notNull().check(sql`available >= 0`))
    .addColumn('reserved', 'bigint', (col) => col.notNull().check(sql`reserved >= 0`))
    .execute();
  await db.schema
    .createTable('inventory_reservation')
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('sku', 'text', (col) => col.notNull().references('inventory.sku'))
    .addColumn('quantity', 'bigint', (col) => col.notNull().check(sql`quantity > 0`))
    .addColumn('reserved_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('inventory_reservation_pkey', ['order_id', 'sku'])
    .execute();
}

/** The example's schema: the marker table plus the pattern's inventory tables. */
export const inventoryMigrations: Migrations = combineMigrations(idempotencyMigrations, {
  '2026-11-30T00-10-example-inventory': { up },
});
