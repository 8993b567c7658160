import type { ColumnType, Selectable } from 'kysely';

/**
 * One row per Idempotency-Key of POST /inventory/:sku/restock, written in the
 * same transaction as the units it added: a committed row always means the
 * units were added once, and carries the answer every retry gets.
 */
export interface RestockRequestTable {
  idempotency_key: string;
  /** sha256 of the canonical JSON of SKU and body: the same key for another restock is refused. */
  request_fingerprint: string;
  sku: string;
  quantity: number;
  /** The first 200 body (the stock level right after the restock), replayed to every retry. */
  response: ColumnType<unknown, never, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type RestockRequestRow = Selectable<RestockRequestTable>;
