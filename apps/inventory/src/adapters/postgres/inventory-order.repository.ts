import type { Transaction } from 'kysely';
import { sql } from 'kysely';
import type { InventoryOrder, InventoryOrderStatus } from '../../domain/inventory-order.js';
import type { InventoryDatabase } from './database.js';

type Trx = Transaction<InventoryDatabase>;

/**
 * The stored state of one order, locked (FOR UPDATE) until the transaction
 * ends, so two events of one order are applied one after the other.
 */
export async function lockInventoryOrder(
  trx: Trx,
  orderId: string,
): Promise<InventoryOrder | undefined> {
  const row = await trx
    .selectFrom('inventory_order')
    .select(['status', 'order_version'])
    .where('order_id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  return row === undefined ? undefined : { status: row.status, orderVersion: row.order_version };
}

/**
 * Records the first decision for an order. A row already there violates
 * `inventory_order_pkey`, a declared business key: the order was decided by a
 * concurrent delivery (the same placement under another id, or its cancellation).
 */
export async function insertInventoryOrder(
  trx: Trx,
  input: { orderId: string; status: InventoryOrderStatus; orderVersion: number },
): Promise<void> {
  await trx
    .insertInto('inventory_order')
    .values({ order_id: input.orderId, status: input.status, order_version: input.orderVersion })
    .execute();
}

/**
 * Records a cancellation that came before anything was reserved. False when a
 * concurrent delivery recorded the order first: the caller decides again from
 * that row. ON CONFLICT DO NOTHING waits for that delivery to commit or roll
 * back, so the answer is never a guess.
 */
export async function insertReleasedIfAbsent(
  trx: Trx,
  input: { orderId: string; orderVersion: number },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('inventory_order')
    .values({ order_id: input.orderId, status: 'released', order_version: input.orderVersion })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .returning('order_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateInventoryOrder(
  trx: Trx,
  input: { orderId: string; status: InventoryOrderStatus; orderVersion: number },
): Promise<void> {
  await trx
    .updateTable('inventory_order')
    .set({ status: input.status, order_version: input.orderVersion, updated_at: sql<Date>`now()` })
    .where('order_id', '=', input.orderId)
    .execute();
}
