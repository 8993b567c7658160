import { sql, type Kysely, type Transaction } from 'kysely';
import type { LedgerEntry } from '@effectively-once/contracts';
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

/** Voids an authorization; voiding a voided one changes nothing (and keeps its first voided_at). */
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
