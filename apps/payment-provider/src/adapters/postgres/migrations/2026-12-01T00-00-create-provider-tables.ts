import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_record')
    // The primary key is the arbiter: two requests with one key race on its
    // unique index, and exactly one INSERT wins the claim.
    .addColumn('idempotency_key', 'text', (col) => col.primaryKey())
    .addColumn('operation', 'text', (col) =>
      col.notNull().check(sql`operation IN ('authorize', 'void')`),
    )
    .addColumn('request_fingerprint', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state IN ('in_flight', 'completed')`),
    )
    // Who holds the claim: a worker completes the record only while it still
    // holds it, so a takeover of a stale claim shuts the old worker out.
    .addColumn('claim_id', 'uuid', (col) => col.notNull())
    .addColumn('claimed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addCheckConstraint(
      'idempotency_record_completed_has_response',
      sql`(state = 'completed') = (response_status IS NOT NULL AND response_body IS NOT NULL AND completed_at IS NOT NULL)`,
    )
    .execute();
  await db.schema
    .createTable('authorization')
    .addColumn('authorization_id', 'text', (col) => col.primaryKey())
    // A second guard beside the key's record: one authorization per key, whatever the code does.
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('amount_cents', 'bigint', (col) => col.notNull().check(sql`amount_cents > 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status IN ('authorized', 'voided')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('voided_at', 'timestamptz')
    .addCheckConstraint(
      'authorization_voided_has_time',
      sql`(status = 'voided') = (voided_at IS NOT NULL)`,
    )
    .execute();
  // The ledger lists oldest first.
  await db.schema
    .createIndex('authorization_created_at_idx')
    .on('authorization')
    .columns(['created_at', 'authorization_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('authorization').execute();
  await db.schema.dropTable('idempotency_record').execute();
}
