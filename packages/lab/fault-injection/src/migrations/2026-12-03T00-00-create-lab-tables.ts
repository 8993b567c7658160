import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('lab_journal')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    // clock_timestamp, not now(): steps inside one transaction get their own times.
    .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`clock_timestamp()`))
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('pid', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('consumer', 'text')
    .addColumn('message_id', 'text')
    .addColumn('event_type', 'text')
    .addColumn('order_id', 'text')
    .addColumn('detail', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  // The runner and the console read one order's steps, polling with the last id seen.
  await db.schema
    .createIndex('lab_journal_order_id_id_idx')
    .on('lab_journal')
    .columns(['order_id', 'id'])
    .execute();
  await db.schema
    .createTable('lab_mistake')
    .addColumn('consumer', 'text', (col) => col.primaryKey())
    .addColumn('mistake', 'text', (col) => col.notNull())
    .addColumn('set_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lab_mistake').execute();
  await db.schema.dropTable('lab_journal').execute();
}
