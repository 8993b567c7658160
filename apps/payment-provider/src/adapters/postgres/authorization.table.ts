import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { AuthorizationStatus } from '../../domain/authorization-lifecycle.decide.js';

/**
 * One granted authorization: the provider's ledger. Declines leave no row.
 * It ends captured or voided, never both; each end keeps the time it came.
 */
export interface AuthorizationTable {
  authorization_id: string;
  idempotency_key: string;
  amount_cents: number;
  currency: string;
  status: AuthorizationStatus;
  created_at: ColumnType<Date, Date | undefined, never>;
  captured_at: ColumnType<Date | null, never, Date>;
  voided_at: ColumnType<Date | null, never, Date>;
}

export type AuthorizationRow = Selectable<AuthorizationTable>;
export type NewAuthorization = Insertable<AuthorizationTable>;
