import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OrderDeadlineTable } from './order-deadline.table.js';
import type { OrderRequestTable } from './order-request.table.js';
import type { OrderSummaryTable } from './order-summary.table.js';

/** The order service's own database. The orders themselves live in the event store. */
export interface OrderDatabase extends IdempotencyTables {
  order_request: OrderRequestTable;
  order_deadline: OrderDeadlineTable;
  order_summary: OrderSummaryTable;
}
