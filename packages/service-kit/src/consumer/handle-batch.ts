// A batch of deliveries, start to settlement. One delivery is handled as it
// always was; several share one transaction, each in its own delivery span,
// its own savepoint and its own settlement (ADR 0036).
import type { Delivery } from '@effectively-once/event-store';
import { seatsInOneBatch } from './batch-seats.js';
import { handleDelivery, type DeliveryContext } from './handle-delivery.js';

/** Settles every delivery of the batch. Never throws, as handleDelivery does not. */
export async function handleBatch(
  context: DeliveryContext,
  batch: readonly Delivery[],
): Promise<void> {
  const [only] = batch;
  if (batch.length === 1 && only !== undefined) return handleDelivery(context, only);
  const seats = seatsInOneBatch(batch.length);
  await Promise.all(
    batch.map((delivery, position) => {
      const seat = seats[position];
      return handleDelivery(context, delivery, seat).finally(() => seat?.leave());
    }),
  );
}
