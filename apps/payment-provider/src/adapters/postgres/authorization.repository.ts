import { sql, type Kysely, type Transaction } from 'kysely';
import type { LedgerEntry } from '@effectively-once/contracts';
import type { AuthorizationState } from '../../domain/authorization-lifecycle.decide.js';
import type { AuthorizationRow, NewAuthorization } from './authorization.table.js';
import type { ProviderDatabase } from './provider.database.js';

type Db = Kysely<ProviderDatabase> | Transaction<ProviderDatabase>;

export async function insertAuthorization(db: Db, authorization: NewAuthorization): Promise<void> {
  await db.insertInto('authorization').values(authorization).execute();
}

export async function findAuthorization(
  db: Db,
  authorizationId: string,
): Promise<AuthorizationRow | undefined> {
  return db
    .selectFrom('authorization')
    .selectAll()
    .where('authorization_id', '=', authorizationId)
    .executeTakeFirst();
}

/** The authorization made under an idempotency key (at most one: the column is unique). */
export async function findAuthorizationByKey(
  db: Db,
  idempotencyKey: string,
): Promise<AuthorizationRow | undefined> {
  return db
    .selectFrom('authorization')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * Reads an authorization and locks its row until the transaction ends: a
 * capture and a void of one authorization then run one after the other, and
 * the second decides from what the first wrote.
 */
export async function lockAuthorization(
  trx: Transaction<ProviderDatabase>,
  authorizationId: string,
): Promise<AuthorizationState | undefined> {
  const row = await trx
    .selectFrom('authorization')
    .select(['authorization_id', 'status', 'amount_cents'])
    .where('authorization_id', '=', authorizationId)
    .forUpdate()
    .executeTakeFirst();
  return (
    row && {
      authorizationId: row.authorization_id,
      status: row.status,
      amountCents: row.amount_cents,
    }
  );
}

/** authorized → captured; the status guard makes it a no-op on any other status. */
export async function captureAuthorization(db: Db, authorizationId: string): Promise<void> {
  await db
    .updateTable('authorization')
    .set({ status: 'captured', captured_at: sql<Date>`now()` })
    .where('authorization_id', '=', authorizationId)
    .where('status', '=', 'authorized')
    .execute();
}

/** authorized → voided; the status guard makes it a no-op on any other status. */
export async function voidAuthorization(db: Db, authorizationId: string): Promise<void> {
  await db
    .updateTable('authorization')
    .set({ status: 'voided', voided_at: sql<Date>`now()` })
    .where('authorization_id', '=', authorizationId)
    .where('status', '=', 'authorized')
    .execute();
}

function toLedgerEntry(row: AuthorizationRow): LedgerEntry {
  return {
    authorizationId: row.authorization_id,
    idempotencyKey: row.idempotency_key,
    amountCents: row.amount_cents,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    capturedAt: row.captured_at === null ? null : row.captured_at.toISOString(),
    voidedAt: row.voided_at === null ? null : row.voided_at.toISOString(),
  };
}

/** The ledger, oldest first; with a key, only the authorization made under it. */
export async function listLedger(
  db: Db,
  filter: { idempotencyKey?: string | undefined } = {},
): Promise<LedgerEntry[]> {
  let query = db
    .selectFrom('authorization')
    .selectAll()
    .orderBy('created_at')
    .orderBy('authorization_id');
  if (filter.idempotencyKey !== undefined) {
    query = query.where('idempotency_key', '=', filter.idempotencyKey);
  }
  const rows = await query.execute();
  return rows.map(toLedgerEntry);
}
