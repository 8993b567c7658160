import type { ColumnType, Selectable } from 'kysely';
import type { Operation } from '../../domain/provider.responses.js';

/**
 * One row per idempotency key: claimed (`in_flight`) in its own committed
 * transaction before the work, completed with the final answer in the work's
 * transaction. A transient failure deletes it, so the key can be used afresh.
 * A key its owner closed while nothing was stored keeps a `closed` row, which
 * no request can claim again.
 */
export interface IdempotencyRecordTable {
  idempotency_key: string;
  operation: Operation;
  request_fingerprint: string;
  state: 'in_flight' | 'completed' | 'closed';
  claim_id: string;
  claimed_at: ColumnType<Date, Date | undefined, Date>;
  response_status: number | null;
  /** Written as JSON text; read back as parsed JSON, checked by zod before use. */
  response_body: ColumnType<unknown, string | null, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
  completed_at: ColumnType<Date | null, never, Date>;
  closed_at: ColumnType<Date | null, Date | null | undefined, Date>;
}

export type IdempotencyRecordRow = Selectable<IdempotencyRecordTable>;
