// Everything the inventory consumer can change for one order and its SKUs, in
// a form tests compare with toEqual: a duplicate must leave it identical.
import { inventoryStream } from '@effectively-once/contracts';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from '../adapters/postgres/database.js';

export async function inventoryState(
  db: Kysely<InventoryDatabase>,
  input: { orderId: string; skus: readonly string[] },
) {
  const [stock, reservations, order, outbox] = await Promise.all([
    input.skus.length === 0
      ? []
      : db
          .selectFrom('inventory')
          .select(['sku', 'available', 'reserved'])
          .where('sku', 'in', [...input.skus])
          .orderBy('sku')
          .execute(),
    db
      .selectFrom('inventory_reservation')
      .select(['sku', 'quantity', 'status'])
      .where('order_id', '=', input.orderId)
      .orderBy('sku')
      .execute(),
    db
      .selectFrom('inventory_order')
      .select(['status', 'order_version'])
      .where('order_id', '=', input.orderId)
      .executeTakeFirst(),
    db
      .selectFrom('outbox')
      .select(['event_id', 'event_type', 'data', 'metadata'])
      .where('stream_name', '=', inventoryStream(input.orderId))
      .orderBy('position')
      .execute(),
  ]);
  return { stock, reservations, order, outbox };
}

/** Markers the consumer wrote for these message ids. */
export async function markerCount(
  db: Kysely<InventoryDatabase>,
  messageIds: readonly string[],
): Promise<number> {
  const { count } = await db
    .selectFrom('processed_message')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('message_id', 'in', [...messageIds])
    .executeTakeFirstOrThrow();
  return count;
}
