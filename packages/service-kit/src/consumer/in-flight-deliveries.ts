// The deliveries a consumer is handling right now, by batch (most often of
// one): each is counted unsettled from dispatch until its handler settles, so
// close() can wait for all of them and the read loop can hold back at its
// concurrency. A batch is also counted at work until each of its deliveries
// has been acked or handed back, which is what the store may lease for (ADR 0040).
import type { Delivery } from '@effectively-once/event-store';
import { handleBatch } from './handle-batch.js';
import type { DeliveryContext } from './handle-delivery.js';
import type { unsettledDeliveries } from './unsettled-deliveries.js';

export interface InFlightDeliveries {
  /** Starts handling the batch without waiting for it. */
  dispatch(batch: readonly Delivery[]): void;
  /** Batches in flight. */
  size(): number;
  /** Batches in flight with a delivery not yet acked or handed back: their slots are busy. */
  working(): number;
  /** Resolves as soon as one of the batches in flight settles. */
  oneSettled(): Promise<void>;
  /** Resolves once every delivery in flight has settled. */
  drain(): Promise<void>;
}

/** The delivery as it is, calling `onSettling` the first time it is acked or handed back. */
function tellingSettlement(delivery: Delivery, onSettling: () => void): Delivery {
  let told = false;
  const settling = (): void => {
    if (told) return;
    told = true;
    onSettling();
  };
  return {
    event: delivery.event,
    retryCount: delivery.retryCount,
    ack: () => {
      settling();
      // eslint-disable-next-line effectively-once/no-ack-outside-settle-delivery -- passes settleDelivery's ack on unchanged; it only notes that the work is done.
      return delivery.ack();
    },
    nack: (action, reason, options) => {
      settling();
      return delivery.nack(action, reason, options);
    },
  };
}

export function inFlightDeliveries(input: {
  context: DeliveryContext;
  unsettled: ReturnType<typeof unsettledDeliveries>;
}): InFlightDeliveries {
  const tasks = new Set<Promise<void>>();
  let working = 0;
  return {
    dispatch: (batch) => {
      const settled = batch.map(() => input.unsettled.add());
      let atWork = batch.length;
      working++;
      // Once per batch: when its last delivery starts settling, or when it
      // ended without (handleBatch never throws, but stay exact if it did).
      let done = false;
      const doneWorking = (): void => {
        if (done) return;
        done = true;
        working--;
      };
      const told = batch.map((delivery) =>
        tellingSettlement(delivery, () => {
          if (--atWork === 0) doneWorking();
        }),
      );
      const task = handleBatch(input.context, told).finally(() => {
        doneWorking();
        for (const one of settled) one();
        tasks.delete(task);
      });
      tasks.add(task);
    },
    size: () => tasks.size,
    working: () => working,
    oneSettled: () => Promise.race(tasks),
    drain: async () => {
      await Promise.all([...tasks]);
    },
  };
}
