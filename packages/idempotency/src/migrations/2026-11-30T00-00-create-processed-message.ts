import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('processed_message')
    .addColumn('consumer_name', 'text', (col) => col.notNull())
    .addColumn('message_id', 'text', (col) => col.notNull())
    .addColumn('processed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // The composite key is the arbiter: concurrent claims of one (consumer,
    // message) serialize on its unique index, and each consumer of a message
    // gets its own row.
    .addPrimaryKeyConstraint('processed_message_pkey', ['consumer_name', 'message_id'])
    .execute();
  // Retention deletes by age; without this index every prune scans the table.
  await db.schema
    .createIndex('processed_message_processed_at_idx')
    .on('processed_message')
    .column('processed_at')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('processed_message').execute();
}
