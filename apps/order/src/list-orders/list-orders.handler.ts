// GET /orders: a page of order ids from the key rows, newest first, each
// order's status and version read from its stream.
import type { OrderList } from '@effectively-once/contracts';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { loadOrder } from '../adapters/eventStore/order-stream.js';
import { listOrderRequests } from '../adapters/postgres/order-request.repository.js';
import { invalidCursor } from '../adapters/http/order.problems.js';
import { decodeCursor, encodeCursor } from './order-cursor.js';
import { isPlaced } from '../adapters/http/order-resource.js';

/**
 * One page of orders. An order whose key row exists but whose OrderPlaced is
 * not appended yet (a request in flight, or one that crashed and was never
 * retried) is left out, so a page may hold fewer than `limit` orders.
 *
 * @example
 * const page = await listOrders(deps, { limit: 20 });
 */
export async function listOrders(
  deps: Pick<OrderServiceDeps, 'db' | 'store'>,
  query: { limit: number; cursor?: string | undefined },
): Promise<OrderList> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) throw invalidCursor();
  // One row more than asked tells whether another page follows.
  const rows = await listOrderRequests(deps.db, { limit: query.limit + 1, after });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const loaded = await Promise.all(page.map((row) => loadOrder(deps.store, row.orderId)));
  return {
    orders: loaded.filter(isPlaced).map(({ state, revision }) => ({
      orderId: state.orderId,
      status: state.status,
      version: Number(revision),
      placedAt: state.placedAt,
    })),
    nextCursor: rows.length > query.limit && last !== undefined ? encodeCursor(last) : null,
  };
}
