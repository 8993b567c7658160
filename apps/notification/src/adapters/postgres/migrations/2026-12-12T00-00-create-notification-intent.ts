import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_intent')
    .addColumn('order_id', 'uuid', (col) => col.notNull())
    .addColumn('kind', 'text', (col) =>
      col.notNull().check(sql`kind in ('order_confirmed', 'order_cancelled')`),
    )
    .addColumn('email_message_id', 'text', (col) => col.notNull())
    // The message whose delivery is sending the email, and since when.
    .addColumn('held_by_message_id', 'text', (col) => col.notNull())
    .addColumn('held_since', 'timestamptz', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    // One intent per email, as one notification row per email.
    .addPrimaryKeyConstraint('notification_intent_pkey', ['order_id', 'kind'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_intent').execute();
}
