import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_deadline')
    .addColumn('order_id', 'uuid', (col) => col.notNull())
    .addColumn('deadline', 'text', (col) =>
      col.notNull().check(sql`deadline in ('inventory', 'payment', 'complete')`),
    )
    // Millisecond precision, as the deadlines in OrderPlaced have.
    .addColumn('due_at', sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn('generation', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('fired_at', 'timestamptz')
    .addPrimaryKeyConstraint('order_deadline_pkey', ['order_id', 'deadline'])
    .execute();
  // The timer's one query: the earliest due rows not fired yet.
  await db.schema
    .createIndex('order_deadline_due_idx')
    .on('order_deadline')
    .column('due_at')
    .where(sql.ref('fired_at'), 'is', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_deadline').execute();
}
