import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
//
// A timer whose firing fails is tried again later, with backoff, and parked
// after a bounded number of failures; a timer is claimed for a while before
// it is fired, so one process fires it. Both are written in next_attempt_at
// (docs/adr/0032-timers-claimed-backed-off-and-parked.md).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('order_deadline')
    // When the timer may be tried next: its due time, then the end of a
    // claim, a backoff or the order's own later deadline.
    .addColumn('next_attempt_at', sql`timestamptz(3)`)
    .addColumn('failed_attempts', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`failed_attempts >= 0`),
    )
    .addColumn('last_error', 'text')
    .addColumn('parked_at', 'timestamptz')
    .execute();
  await db
    .updateTable('order_deadline')
    .set({ next_attempt_at: sql.ref('due_at') })
    .execute();
  await db.schema
    .alterTable('order_deadline')
    .alterColumn('next_attempt_at', (col) => col.setNotNull())
    .execute();
  await db.schema.dropIndex('order_deadline_due_idx').execute();
  // The timer's one query: the rows to try now, neither fired nor parked.
  await db.schema
    .createIndex('order_deadline_next_attempt_idx')
    .on('order_deadline')
    .column('next_attempt_at')
    .where(sql<boolean>`fired_at is null and parked_at is null`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('order_deadline_next_attempt_idx').execute();
  await db.schema
    .createIndex('order_deadline_due_idx')
    .on('order_deadline')
    .column('due_at')
    .where(sql.ref('fired_at'), 'is', null)
    .execute();
  await db.schema
    .alterTable('order_deadline')
    .dropColumn('next_attempt_at')
    .dropColumn('failed_attempts')
    .dropColumn('last_error')
    .dropColumn('parked_at')
    .execute();
}
