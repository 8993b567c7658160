import { sql, type Kysely } from 'kysely';

// restock_request: one row per Idempotency-Key of POST /inventory/:sku/restock.
// The primary key is the guard: the row is inserted first, in the restock's
// own transaction, so a second request with the key waits for the first and
// then finds its row. No foreign key to inventory: the key's row is inserted
// before a SKU's first restock creates the SKU's own row.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('restock_request')
    .addColumn('idempotency_key', 'text', (col) => col.primaryKey())
    .addColumn('request_fingerprint', 'text', (col) => col.notNull())
    .addColumn('sku', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    // Null only inside the first attempt's transaction: committed rows carry their answer.
    .addColumn('response', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('restock_request').execute();
}
