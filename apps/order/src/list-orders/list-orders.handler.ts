// GET /orders: one page of the order-summary projection, newest first. One
// query, whatever the page size: the orders' streams are not read.
import type { OrderList } from '@effectively-once/contracts';
import { listOrderSummaries } from '../adapters/postgres/order-summary.repository.js';
import { invalidCursor } from '../order.problems.js';
import type { OrderAppDeps } from '../order-service.deps.js';
import { decodeCursor, encodeCursor } from './order-cursor.js';

/**
 * One page of orders. An order is listed once its OrderPlaced is appended and
 * summarised; a key row whose order was never appended is not. Until the
 * start-up catch-up has summarised the orders from before the projection, it
 * waits: a page without them would look complete and be wrong (ADR 0024).
 *
 * @example
 * const page = await listOrders(deps, { limit: 20 });
 */
export async function listOrders(
  deps: Pick<OrderAppDeps, 'db' | 'summaries'>,
  query: { limit: number; cursor?: string | undefined },
): Promise<OrderList> {
  await deps.summaries.wait();
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) throw invalidCursor();
  // One row more than asked tells whether another page follows.
  const rows = await listOrderSummaries(deps.db, {
    limit: query.limit + 1,
    after: after === undefined ? undefined : { placedAt: after.createdAt, orderId: after.orderId },
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    orders: page.map((row) => ({
      orderId: row.order_id,
      status: row.status,
      version: row.version,
      placedAt: row.placed_at.toISOString(),
    })),
    nextCursor:
      rows.length > query.limit && last !== undefined
        ? encodeCursor({ createdAt: last.placed_at, orderId: last.order_id })
        : null,
  };
}
