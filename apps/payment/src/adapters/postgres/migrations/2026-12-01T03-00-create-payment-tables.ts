import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_attempt')
    .addColumn('attempt_id', 'text', (col) => col.primaryKey())
    // One attempt per order: a second request for the order cannot start a second charge.
    .addColumn('order_id', 'uuid', (col) => col.notNull().unique())
    .addColumn('amount_cents', 'bigint', (col) => col.notNull().check(sql`amount_cents > 0`))
    .addColumn('payment_token', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('pending', 'authorized', 'declined', 'voided')`),
    )
    .addColumn('authorization_id', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    // The state machine's data rules, kept by the database as well as the domain.
    .addCheckConstraint(
      'payment_attempt_answer_check',
      sql`(status in ('authorized', 'voided')) = (authorization_id is not null)
          and (status = 'declined') = (decline_reason is not null)`,
    )
    .execute();
  await db.schema
    .createTable('payment_cancellation')
    .addColumn('order_id', 'uuid', (col) => col.primaryKey())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_cancellation').execute();
  await db.schema.dropTable('payment_attempt').execute();
}
