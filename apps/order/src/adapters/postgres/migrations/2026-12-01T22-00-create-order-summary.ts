import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
//
// No backfill here: the orders live in the event store, which a migration of
// this database cannot read. The service fills in the orders placed before
// this table at start (docs/adr/0024-order-summary-projection.md).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_summary')
    .addColumn('order_id', 'uuid', (col) => col.primaryKey())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .check(
          sql`status in ('awaiting_inventory', 'awaiting_payment', 'confirmed', 'cancelling', 'cancelled')`,
        ),
    )
    // The order stream's revision the row was folded at: a write with a lower
    // or equal one changes nothing, so the row never moves backwards.
    .addColumn('version', 'bigint', (col) => col.notNull().check(sql`version >= 0`))
    // Millisecond precision, as OrderPlaced's placedAt and the list's cursor have.
    .addColumn('placed_at', sql`timestamptz(3)`, (col) => col.notNull())
    .execute();
  // GET /orders pages newest first by (placed_at, order_id).
  await db.schema
    .createIndex('order_summary_listing_idx')
    .on('order_summary')
    .columns(['placed_at desc', 'order_id desc'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_summary').execute();
}
