import { sql, type Kysely } from 'kysely';

// The tally of inventory-demand-v1: ordered units per SKU. No foreign key to
// inventory: a SKU can be ordered before it was ever restocked.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sku_demand')
    .addColumn('sku', 'text', (col) => col.primaryKey())
    .addColumn('units_ordered', 'bigint', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`units_ordered >= 0`),
    )
    .addColumn('orders', 'bigint', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`orders >= 0`),
    )
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sku_demand').execute();
}
