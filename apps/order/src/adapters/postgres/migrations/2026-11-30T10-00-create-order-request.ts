import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_request')
    .addColumn('idempotency_key', 'text', (col) => col.primaryKey())
    .addColumn('request_fingerprint', 'text', (col) => col.notNull())
    .addColumn('order_id', 'uuid', (col) => col.notNull().unique())
    .addColumn('response', 'jsonb')
    // Millisecond precision, as JavaScript dates have: the list's cursor
    // carries created_at and must compare equal to the stored value.
    .addColumn('created_at', sql`timestamptz(3)`, (col) => col.notNull())
    .execute();
  // GET /orders pages newest first by (created_at, order_id).
  await db.schema
    .createIndex('order_request_listing_idx')
    .on('order_request')
    .columns(['created_at desc', 'order_id desc'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_request').execute();
}
