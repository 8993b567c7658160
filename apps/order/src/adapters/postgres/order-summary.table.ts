import type { OrderStatus } from '@effectively-once/contracts';
import type { ColumnType, Selectable } from 'kysely';

/**
 * The order-summary projection: one row per placed order, what GET /orders
 * lists. Written after each append to the order's stream, guarded by the
 * stream's revision (docs/adr/0024-order-summary-projection.md).
 */
export interface OrderSummaryTable {
  order_id: string;
  status: OrderStatus;
  /** The revision of the order stream's last event folded into this row. */
  version: number;
  placed_at: ColumnType<Date, Date, never>;
}

export type OrderSummaryRow = Selectable<OrderSummaryTable>;
