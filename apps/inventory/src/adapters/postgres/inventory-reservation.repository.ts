import type { OrderLine } from '@effectively-once/contracts';
import type { Transaction } from 'kysely';
import type { InventoryDatabase } from './database.js';

type Trx = Transaction<InventoryDatabase>;

/**
 * Records each line as reserved. A line already recorded for the order
 * violates `inventory_reservation_pkey`, which the consumer declares as a
 * business key: the same placement arrived under another message id.
 */
export async function insertReservations(
  trx: Trx,
  input: { orderId: string; lines: readonly OrderLine[] },
): Promise<void> {
  await trx
    .insertInto('inventory_reservation')
    .values(
      input.lines.map((line) => ({
        order_id: input.orderId,
        sku: line.sku,
        quantity: line.quantity,
        status: 'reserved' as const,
      })),
    )
    .execute();
}

/** The order's lines still held (status reserved), in SKU order. */
export async function findHeldLines(trx: Trx, orderId: string): Promise<OrderLine[]> {
  return trx
    .selectFrom('inventory_reservation')
    .select(['sku', 'quantity'])
    .where('order_id', '=', orderId)
    .where('status', '=', 'reserved')
    .orderBy('sku')
    .execute();
}

/** A released line no longer exists: the stock is back in `available`. */
export async function deleteHeldLines(trx: Trx, orderId: string): Promise<void> {
  await trx
    .deleteFrom('inventory_reservation')
    .where('order_id', '=', orderId)
    .where('status', '=', 'reserved')
    .execute();
}

/** A consumed line stays, as the record of stock that left the warehouse. */
export async function markHeldLinesConsumed(trx: Trx, orderId: string): Promise<void> {
  await trx
    .updateTable('inventory_reservation')
    .set({ status: 'consumed' })
    .where('order_id', '=', orderId)
    .where('status', '=', 'reserved')
    .execute();
}
