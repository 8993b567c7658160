// The capture and closed-key migration on a database that already holds
// authorizations and key records: old rows stay valid, and the new states
// come with their times or not at all.
import { migrateToLatest } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import * as createProviderTables from './2026-12-01T00-00-create-provider-tables.js';
import { providerMigrations } from './index.js';

// The database as it was before captures existed.
const { db: before } = await createTestDatabase<unknown>({
  '2026-12-01T00-00-create-provider-tables': createProviderTables,
});

it('keeps old rows, then allows captured and closed only with their times', async () => {
  await sql`
    insert into "authorization" (authorization_id, idempotency_key, amount_cents, currency, status, voided_at)
    values ('auth_old_1', 'authorize:old-1', 1000, 'EUR', 'authorized', null),
           ('auth_old_2', 'authorize:old-2', 2000, 'EUR', 'voided', now())
  `.execute(before);
  await sql`
    insert into idempotency_record (idempotency_key, operation, request_fingerprint, state, claim_id)
    values ('authorize:old-3', 'authorize', '{}', 'in_flight', gen_random_uuid())
  `.execute(before);

  await migrateToLatest(before, providerMigrations);

  const { rows } = await sql<{
    authorization_id: string;
    status: string;
    captured_at: Date | null;
  }>`
    select authorization_id, status, captured_at from "authorization" order by authorization_id
  `.execute(before);
  expect(rows).toEqual([
    { authorization_id: 'auth_old_1', status: 'authorized', captured_at: null },
    { authorization_id: 'auth_old_2', status: 'voided', captured_at: null },
  ]);
  await expect(
    sql`update "authorization" set status = 'captured' where authorization_id = 'auth_old_1'`.execute(
      before,
    ),
  ).rejects.toMatchObject({ code: '23514', constraint: 'authorization_captured_has_time' });
  await sql`
    update "authorization" set status = 'captured', captured_at = now() where authorization_id = 'auth_old_1'
  `.execute(before);
  await expect(
    sql`update idempotency_record set state = 'closed' where idempotency_key = 'authorize:old-3'`.execute(
      before,
    ),
  ).rejects.toMatchObject({ code: '23514', constraint: 'idempotency_record_closed_has_time' });
  await sql`
    update idempotency_record set state = 'closed', closed_at = now() where idempotency_key = 'authorize:old-3'
  `.execute(before);
  await expect(
    sql`
      insert into idempotency_record (idempotency_key, operation, request_fingerprint, state, claim_id)
      values ('refund:1', 'refund', '{}', 'in_flight', gen_random_uuid())
    `.execute(before),
  ).rejects.toMatchObject({ code: '23514', constraint: 'idempotency_record_operation_check' });
});
