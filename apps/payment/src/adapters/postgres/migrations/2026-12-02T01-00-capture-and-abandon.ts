import { sql, type Kysely } from 'kysely';

// Two more states of an attempt: `captured` (the order was confirmed and the
// money taken) and `abandoned` (the processor's key was closed with nothing
// authorized under it). The data rule stays in the database: an attempt that
// holds or held an authorization carries its id, and only then.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE payment_attempt
      DROP CONSTRAINT payment_attempt_status_check,
      ADD CONSTRAINT payment_attempt_status_check
        CHECK (status IN ('pending', 'authorized', 'declined', 'voided', 'captured', 'abandoned')),
      DROP CONSTRAINT payment_attempt_answer_check,
      ADD CONSTRAINT payment_attempt_answer_check
        CHECK ((status IN ('authorized', 'voided', 'captured')) = (authorization_id IS NOT NULL)
               AND (status = 'declined') = (decline_reason IS NOT NULL))`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE payment_attempt
      DROP CONSTRAINT payment_attempt_status_check,
      ADD CONSTRAINT payment_attempt_status_check
        CHECK (status IN ('pending', 'authorized', 'declined', 'voided')),
      DROP CONSTRAINT payment_attempt_answer_check,
      ADD CONSTRAINT payment_attempt_answer_check
        CHECK ((status IN ('authorized', 'voided')) = (authorization_id IS NOT NULL)
               AND (status = 'declined') = (decline_reason IS NOT NULL))`.execute(db);
}
