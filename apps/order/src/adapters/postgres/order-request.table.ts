import type { ColumnType, Selectable } from 'kysely';

/**
 * One row per Idempotency-Key of POST /orders. The row is committed, with the
 * order id it stands for, before the order is appended, so a retry after any
 * crash finds the same order id; `response` is set once the order exists.
 */
export interface OrderRequestTable {
  idempotency_key: string;
  /** sha256 of the canonical JSON of the request body: the same key with another body is refused. */
  request_fingerprint: string;
  order_id: string;
  /** The first 201 body, replayed to every retry; null until the order was appended. */
  response: ColumnType<unknown, never, string>;
  created_at: ColumnType<Date, Date, never>;
}

export type OrderRequest = Selectable<OrderRequestTable>;
