// The inventory database: stock with its reservation lines (one statement, so
// one snapshot: a consume moves units from `reserved` to a consumed line in
// one transaction, and the sums must not see half of it), the lines still
// reserved per order, the orders it decided, and inventory-demand-v1's tally.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { DemandFact, ReservedLine, StockFact } from './facts.types.js';

const units = z.number().int();

const StockRow = z.object({
  sku: z.string(),
  available: units,
  reserved: units,
  stocked: units,
  reserved_lines: units,
  consumed_lines: units,
});

export async function loadStock(db: Kysely<unknown>): Promise<StockFact[]> {
  const { rows } = await sql`
    SELECT i.sku, i.available, i.reserved, i.stocked,
           coalesce(sum(r.quantity) FILTER (WHERE r.status = 'reserved'), 0)::int8 AS reserved_lines,
           coalesce(sum(r.quantity) FILTER (WHERE r.status = 'consumed'), 0)::int8 AS consumed_lines
      FROM inventory i LEFT JOIN inventory_reservation r ON r.sku = i.sku
     GROUP BY i.sku`.execute(db);
  return z
    .array(StockRow)
    .parse(rows)
    .map((row) => ({
      sku: row.sku,
      available: row.available,
      reserved: row.reserved,
      stocked: row.stocked,
      reservedLines: row.reserved_lines,
      consumedLines: row.consumed_lines,
    }));
}

/** Each order's stock decision in inventory: order id -> status (reserved, rejected, released, consumed). */
export async function loadInventoryOrders(db: Kysely<unknown>): Promise<Map<string, string>> {
  const { rows } =
    await sql`SELECT order_id::text AS order_id, status FROM inventory_order`.execute(db);
  return new Map(
    z
      .array(z.object({ order_id: z.string(), status: z.string() }))
      .parse(rows)
      .map((row) => [row.order_id, row.status]),
  );
}

const ReservedLineRow = z.object({ order_id: z.string(), sku: z.string(), quantity: units });

/** The reservation lines still holding stock, per order: a released line is deleted, a consumed one kept. */
export async function loadReservedLines(db: Kysely<unknown>): Promise<ReservedLine[]> {
  const { rows } = await sql`
    SELECT order_id::text AS order_id, sku, quantity
      FROM inventory_reservation
     WHERE status = 'reserved'`.execute(db);
  return z
    .array(ReservedLineRow)
    .parse(rows)
    .map((row) => ({ orderId: row.order_id, sku: row.sku, quantity: row.quantity }));
}

const DemandRow = z.object({ sku: z.string(), units_ordered: units, orders: units });

export async function loadDemand(db: Kysely<unknown>): Promise<DemandFact[]> {
  const { rows } = await sql`SELECT sku, units_ordered, orders FROM sku_demand`.execute(db);
  return z
    .array(DemandRow)
    .parse(rows)
    .map((row) => ({ sku: row.sku, unitsOrdered: row.units_ordered, orders: row.orders }));
}
