import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('inventory')
    .addColumn('sku', 'text', (col) => col.primaryKey())
    .addColumn('available', 'integer', (col) => col.notNull().check(sql`available >= 0`))
    .addColumn('reserved', 'integer', (col) => col.notNull().check(sql`reserved >= 0`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('inventory_reservation')
    .addColumn('order_id', 'uuid', (col) => col.notNull())
    .addColumn('sku', 'text', (col) => col.notNull().references('inventory.sku'))
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('reserved', 'consumed')`),
    )
    // The business key: one reservation line per (order, SKU).
    .addPrimaryKeyConstraint('inventory_reservation_pkey', ['order_id', 'sku'])
    .execute();
  await db.schema
    .createTable('inventory_order')
    .addColumn('order_id', 'uuid', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('reserved', 'rejected', 'released', 'consumed')`),
    )
    .addColumn('order_version', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // The business key: one decision per order.
    .addPrimaryKeyConstraint('inventory_order_pkey', ['order_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inventory_order').execute();
  await db.schema.dropTable('inventory_reservation').execute();
  await db.schema.dropTable('inventory').execute();
}
