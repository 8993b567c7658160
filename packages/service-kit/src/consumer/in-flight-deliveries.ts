// The deliveries a consumer is handling right now, by batch (most often of
// one): each is counted unsettled from dispatch until its handler settles, so
// close() can wait for all of them and the read loop can hold back at its
// concurrency.
import type { Delivery } from '@effectively-once/event-store';
import { handleBatch } from './handle-batch.js';
import type { DeliveryContext } from './handle-delivery.js';
import type { unsettledDeliveries } from './unsettled-deliveries.js';

export interface InFlightDeliveries {
  /** Starts handling the batch without waiting for it. */
  dispatch(batch: readonly Delivery[]): void;
  /** Batches in flight. */
  size(): number;
  /** Resolves as soon as one of the batches in flight settles. */
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
    dispatch: (batch) => {
      const settled = batch.map(() => input.unsettled.add());
      const task = handleBatch(input.context, batch).finally(() => {
        for (const done of settled) done();
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
