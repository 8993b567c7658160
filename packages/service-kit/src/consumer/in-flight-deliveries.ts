// The deliveries a consumer is handling right now: each is counted unsettled
// from dispatch until its handler settles, so close() can wait for all of them
// and the read loop can hold back at its concurrency.
import type { Delivery } from '@effectively-once/event-store';
import { handleDelivery, type DeliveryContext } from './handle-delivery.js';
import type { unsettledDeliveries } from './unsettled-deliveries.js';

export interface InFlightDeliveries {
  /** Starts handling the delivery without waiting for it. */
  dispatch(delivery: Delivery): void;
  size(): number;
  /** Resolves as soon as one of the deliveries in flight settles. */
  oneSettled(): Promise<void>;
  /** Resolves once every delivery in flight has settled. */
  drain(): Promise<void>;
}

export function inFlightDeliveries(input: {
  context: DeliveryContext;
  unsettled: ReturnType<typeof unsettledDeliveries>;
}): InFlightDeliveries {
  const tasks = new Set<Promise<void>>();
  return {
    dispatch: (delivery) => {
      const settled = input.unsettled.add();
      const task = handleDelivery(input.context, delivery).finally(() => {
        settled();
        tasks.delete(task);
      });
      tasks.add(task);
    },
    size: () => tasks.size,
    oneSettled: () => Promise.race(tasks),
    drain: async () => {
      await Promise.all([...tasks]);
    },
  };
}
