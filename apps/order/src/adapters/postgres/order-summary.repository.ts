// The order-summary rows: one guarded upsert for the writers, one keyset page
// for GET /orders. Plain functions over a Kysely instance or a transaction.
import type { Kysely } from 'kysely';
import type { OrderDatabase } from './order.database.js';
import type { OrderSummaryRow } from './order-summary.table.js';

/**
 * Writes the order's summary unless the row already holds this version or a
 * later one: a repeated write, or a late writer that folded an older revision,
 * changes nothing, so the row only ever moves forward. True when it did move.
 *
 * @example
 * await upsertOrderSummary(db, { order_id, status: 'cancelling', version: 2, placed_at });
 */
export async function upsertOrderSummary(
  db: Kysely<OrderDatabase>,
  summary: OrderSummaryRow,
): Promise<boolean> {
  const result = await db
    .insertInto('order_summary')
    .values(summary)
    .onConflict((oc) =>
      oc
        .column('order_id')
        .doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          version: eb.ref('excluded.version'),
        }))
        .where('order_summary.version', '<', (eb) => eb.ref('excluded.version')),
    )
    .executeTakeFirst();
  return result.numInsertedOrUpdatedRows === 1n;
}

export interface OrderListingKey {
  readonly placedAt: Date;
  readonly orderId: string;
}

/**
 * One page of summaries, newest first, after `after` (exclusive): keyset
 * pagination, so a page is one indexed query however deep it is, and an order
 * placed meanwhile never shifts the next page.
 *
 * @example
 * const rows = await listOrderSummaries(db, { limit: 21 });
 */
export async function listOrderSummaries(
  db: Kysely<OrderDatabase>,
  input: { limit: number; after?: OrderListingKey | undefined },
): Promise<OrderSummaryRow[]> {
  let query = db
    .selectFrom('order_summary')
    .select(['order_id', 'status', 'version', 'placed_at'])
    .orderBy('placed_at', 'desc')
    .orderBy('order_id', 'desc')
    .limit(input.limit);
  const { after } = input;
  if (after !== undefined) {
    query = query.where((eb) =>
      eb(eb.refTuple('placed_at', 'order_id'), '<', eb.tuple(after.placedAt, after.orderId)),
    );
  }
  return query.execute();
}
