import type { OrderLine, SkuDemand } from '@effectively-once/contracts';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { InventoryDatabase } from './database.js';

/**
 * Adds one order's lines to the tally: each line's quantity to its SKU's
 * units_ordered, and one to its orders. Not idempotent by itself; run it only
 * inside the transaction that holds the message's marker. Rows are written in
 * SKU order, so two orders sharing SKUs queue instead of deadlocking. The
 * contracts allow each SKU once per order, so one statement can upsert them all.
 *
 * @example
 * await tallyDemand(trx, [{ sku: 'SKU-MUG', quantity: 2 }]);
 */
export async function tallyDemand(
  trx: Transaction<InventoryDatabase>,
  lines: readonly OrderLine[],
): Promise<void> {
  if (lines.length === 0) return;
  const rows = [...lines]
    .sort((a, b) => a.sku.localeCompare(b.sku))
    .map((line) => ({ sku: line.sku, units_ordered: line.quantity, orders: 1 }));
  await trx
    .insertInto('sku_demand')
    .values(rows)
    .onConflict((oc) =>
      oc.column('sku').doUpdateSet((eb) => ({
        units_ordered: eb('sku_demand.units_ordered', '+', eb.ref('excluded.units_ordered')),
        orders: eb('sku_demand.orders', '+', eb.ref('excluded.orders')),
        updated_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

/** The tally of every SKU ever ordered, in SKU order. */
export async function listDemand(db: Kysely<InventoryDatabase>): Promise<SkuDemand[]> {
  return db
    .selectFrom('sku_demand')
    .select(['sku', 'units_ordered as unitsOrdered', 'orders'])
    .orderBy('sku')
    .execute();
}
