// A service's use of the outbox in one function: the business row and the
// event that reports it commit together, or neither does.
import type { Kysely } from 'kysely';
import { enqueueEvents } from '../../src/index.js';
import type { ShippingDatabase } from './parcel.table.js';

export interface ShipParcel {
  parcelId: string;
  orderId: string;
  shippedAt: Date;
}

/** Records the shipment and enqueues ParcelShipped; resolves with the event's id. */
export async function shipParcel(
  db: Kysely<ShippingDatabase>,
  command: ShipParcel,
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('parcel')
      .values({
        parcel_id: command.parcelId,
        order_id: command.orderId,
        shipped_at: command.shippedAt,
      })
      .execute();
    const [eventId = ''] = await enqueueEvents(trx, [
      {
        streamName: `parcel-${command.parcelId}`,
        type: 'ParcelShipped',
        data: {
          parcelId: command.parcelId,
          orderId: command.orderId,
          shippedAt: command.shippedAt.toISOString(),
        },
        metadata: { correlationId: command.orderId },
      },
    ]);
    return eventId;
  });
}
