import { sql, type Kysely } from 'kysely';

// Captures, and keys closed by their owner. Column CHECKs of the first
// migration carry PostgreSQL's default names (<table>_<column>_check); they
// are replaced, not edited, because that migration has run in the field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('idempotency_record')
    .dropConstraint('idempotency_record_operation_check')
    .execute();
  await db.schema
    .alterTable('idempotency_record')
    .addCheckConstraint(
      'idempotency_record_operation_check',
      sql`operation IN ('authorize', 'void', 'capture')`,
    )
    .execute();
  await db.schema
    .alterTable('idempotency_record')
    .dropConstraint('idempotency_record_state_check')
    .execute();
  // 'closed' is a tombstone: the key's owner was told nothing is held under
  // it, and the row's primary key keeps any later claim of the key out.
  await db.schema
    .alterTable('idempotency_record')
    .addCheckConstraint(
      'idempotency_record_state_check',
      sql`state IN ('in_flight', 'completed', 'closed')`,
    )
    .execute();
  await db.schema.alterTable('idempotency_record').addColumn('closed_at', 'timestamptz').execute();
  await db.schema
    .alterTable('idempotency_record')
    .addCheckConstraint(
      'idempotency_record_closed_has_time',
      sql`(state = 'closed') = (closed_at IS NOT NULL)`,
    )
    .execute();

  await db.schema
    .alterTable('authorization')
    .dropConstraint('authorization_status_check')
    .execute();
  await db.schema
    .alterTable('authorization')
    .addCheckConstraint(
      'authorization_status_check',
      sql`status IN ('authorized', 'captured', 'voided')`,
    )
    .execute();
  await db.schema.alterTable('authorization').addColumn('captured_at', 'timestamptz').execute();
  await db.schema
    .alterTable('authorization')
    .addCheckConstraint(
      'authorization_captured_has_time',
      sql`(status = 'captured') = (captured_at IS NOT NULL)`,
    )
    .execute();
}

// Fails, as it should, while a captured authorization or a closed key exists.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('authorization')
    .dropConstraint('authorization_captured_has_time')
    .execute();
  await db.schema.alterTable('authorization').dropColumn('captured_at').execute();
  await db.schema
    .alterTable('authorization')
    .dropConstraint('authorization_status_check')
    .execute();
  await db.schema
    .alterTable('authorization')
    .addCheckConstraint('authorization_status_check', sql`status IN ('authorized', 'voided')`)
    .execute();
  await db.schema
    .alterTable('idempotency_record')
    .dropConstraint('idempotency_record_closed_has_time')
    .execute();
  await db.schema.alterTable('idempotency_record').dropColumn('closed_at').execute();
  await db.schema
    .alterTable('idempotency_record')
    .dropConstraint('idempotency_record_state_check')
    .execute();
  await db.schema
    .alterTable('idempotency_record')
    .addCheckConstraint('idempotency_record_state_check', sql`state IN ('in_flight', 'completed')`)
    .execute();
  await db.schema
    .alterTable('idempotency_record')
    .dropConstraint('idempotency_record_operation_check')
    .execute();
  await db.schema
    .alterTable('idempotency_record')
    .addCheckConstraint(
      'idempotency_record_operation_check',
      sql`operation IN ('authorize', 'void')`,
    )
    .execute();
}
