// The pattern's running example as a unit of work: OrderPlaced reserves stock.
import type { Kysely, Transaction } from 'kysely';
import { defineConsumer, terminalFailure, type MessageRef } from '../../src/index.js';
import type { Inventory, InventoryDatabase } from './inventory.tables.js';

export const inventoryReservation = defineConsumer({
  name: 'inventory-reservation-v1',
  businessKeys: ['inventory_reservation_pkey'],
});

export interface OrderLinePlaced extends MessageRef {
  readonly type: 'OrderPlaced';
  readonly orderId: string;
  readonly sku: string;
  readonly quantity: number;
}

export type ReservationResult = 'reserved' | 'insufficient-stock';

/**
 * Moves `quantity` from available to reserved and records the reservation.
 * Insufficient stock is a business answer, committed like any other; an
 * unknown SKU can never succeed and is a terminal failure.
 */
export async function reserveStock(
  trx: Transaction<InventoryDatabase>,
  line: OrderLinePlaced,
): Promise<ReservationResult> {
  const moved = await trx
    .updateTable('inventory')
    .set((eb) => ({
      available: eb('available', '-', line.quantity),
      reserved: eb('reserved', '+', line.quantity),
    }))
    .where('sku', '=', line.sku)
    .where('available', '>=', line.quantity)
    .executeTakeFirst();
  if (moved.numUpdatedRows === 0n) {
    const known = await trx
      .selectFrom('inventory')
      .select('sku')
      .where('sku', '=', line.sku)
      .executeTakeFirst();
    if (known === undefined)
      throw terminalFailure(`unknown SKU "${line.sku}" in order ${line.orderId}`);
    return 'insufficient-stock';
  }
  await trx
    .insertInto('inventory_reservation')
    .values({ order_id: line.orderId, sku: line.sku, quantity: line.quantity })
    .execute();
  return 'reserved';
}

export async function stockOf(db: Kysely<InventoryDatabase>, sku: string): Promise<Inventory> {
  return db.selectFrom('inventory').selectAll().where('sku', '=', sku).executeTakeFirstOrThrow();
}

export async function restock(
  db: Kysely<InventoryDatabase>,
  sku: string,
  available: number,
): Promise<void> {
  await db.insertInto('inventory').values({ sku, available, reserved: 0 }).execute();
}
