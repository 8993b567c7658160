import type { Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The attempt sending the email, not only its message: two deliveries of one
  // message in flight at once (a lease that ran out while the first still
  // sends) both passed as the holder and both sent (issue 27). Null: nobody
  // is sending it, as for every row written before this column, whose
  // redelivery took the intent at once too.
  await db.schema.alterTable('notification_intent').addColumn('held_by_attempt', 'uuid').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_intent').dropColumn('held_by_attempt').execute();
}
