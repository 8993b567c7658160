// The order-summary projection's write: the summary row of an order as its
// writer holds it right after an append (or after deciding there was nothing
// to append), so GET /orders reads one table instead of one stream per order.
import type { Kysely } from 'kysely';
import type { LoadedOrder } from '../domain/loaded-order.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import { upsertOrderSummary } from '../adapters/postgres/order-summary.repository.js';
import type { OrderSummaryRow } from '../adapters/postgres/order-summary.table.js';

/**
 * The summary row of a loaded order; undefined while it has no OrderPlaced.
 *
 * @example
 * summaryOf(await loadOrder(store, orderId)); // { order_id, status, version, placed_at }
 */
export function summaryOf(order: LoadedOrder): OrderSummaryRow | undefined {
  const { state, revision } = order;
  if (state.status === 'not_placed' || revision === 'no_stream') return undefined;
  return {
    order_id: state.orderId,
    status: state.status,
    version: Number(revision),
    placed_at: new Date(state.placedAt),
  };
}

/**
 * Brings the order's summary up to `order`, unless it is there already or
 * further on; an order not placed yet has none. Writers call it after every
 * append and also when they appended nothing, so a writer that repeats after
 * a crash between its append and this write repairs the summary.
 *
 * @example
 * await projectOrderSummary(db, result.order);
 */
export async function projectOrderSummary(
  db: Kysely<OrderDatabase>,
  order: LoadedOrder,
): Promise<void> {
  const summary = summaryOf(order);
  if (summary !== undefined) await upsertOrderSummary(db, summary);
}
