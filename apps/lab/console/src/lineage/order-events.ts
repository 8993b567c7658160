// An order's events: its four streams (order, inventory, payment,
// notification), merged into the store's global order. The lineage and the
// trace view both start here.
import {
  inventoryStream,
  notificationStream,
  orderStream,
  paymentStream,
} from '@effectively-once/contracts';
import {
  comparePositions,
  type EventStore,
  type RecordedEvent,
} from '@effectively-once/event-store';

/**
 * @example
 * const events = await readOrderEvents(store, orderId); // [] for an order the store does not hold
 */
export async function readOrderEvents(
  store: EventStore,
  orderId: string,
): Promise<RecordedEvent[]> {
  const streams = [orderStream, inventoryStream, paymentStream, notificationStream];
  const read = await Promise.all(streams.map((name) => store.readStream(name(orderId))));
  return read.flat().sort((a, b) => comparePositions(a.position, b.position));
}
