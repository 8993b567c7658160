import type { ColumnType, Insertable, Selectable } from 'kysely';

/** One granted authorization: the provider's ledger. Declines leave no row. */
export interface AuthorizationTable {
  authorization_id: string;
  idempotency_key: string;
  amount_cents: number;
  currency: string;
  status: 'authorized' | 'voided';
  created_at: ColumnType<Date, Date | undefined, never>;
  voided_at: ColumnType<Date | null, never, Date>;
}

export type AuthorizationRow = Selectable<AuthorizationTable>;
export type NewAuthorization = Insertable<AuthorizationTable>;
