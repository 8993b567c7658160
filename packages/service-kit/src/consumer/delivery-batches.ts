// Reads a subscription in batches: the first delivery is waited for, the
// others are taken only if the store has already leased them (a backlog), so
// with one message ready a batch is that message alone and nothing waits for
// company: latency at low load does not move.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Delivery } from '@effectively-once/event-store';

export interface DeliveryBatches {
  /** The next batch, at least one delivery; undefined once the subscription ended. */
  next(): Promise<Delivery[] | undefined>;
  /** Ends the subscription's iteration (as leaving a for-await loop does). */
  return(): Promise<void>;
}

const NOT_READY = Symbol('not ready');

/**
 * Batches of up to `maxSize` deliveries. Two deliveries with one ordering key
 * never share a batch: the later one opens the next batch, so it runs only
 * after the earlier one's batch committed (or handled it alone).
 *
 * @example
 * const batches = deliveryBatches(subscription, { maxSize: 16, keyOf: () => undefined });
 * for (let batch = await batches.next(); batch !== undefined; batch = await batches.next()) dispatch(batch);
 */
export function deliveryBatches(
  source: AsyncIterable<Delivery>,
  options: {
    maxSize: number;
    keyOf: (delivery: Delivery) => string | undefined;
    /** Told when a batch starts being put together and when it is complete (StartCapacity). */
    assembling?: (open: boolean) => void;
  },
): DeliveryBatches {
  const iterator = source[Symbol.asyncIterator]();
  // A read that did not answer at once: the next batch starts with its answer.
  let pending: Promise<IteratorResult<Delivery>> | undefined;
  let carried: Delivery | undefined;
  let ended = false;

  /** The next delivery if the source has it now, without waiting for a round of the store. */
  const readyNow = async (): Promise<Delivery | typeof NOT_READY | undefined> => {
    pending = iterator.next();
    const answer = await Promise.race([pending, nextTurn(NOT_READY)]);
    if (answer === NOT_READY) return NOT_READY;
    pending = undefined;
    if (answer.done === true) ended = true;
    return answer.done === true ? undefined : answer.value;
  };

  const first = async (): Promise<Delivery | undefined> => {
    if (carried !== undefined) {
      const delivery = carried;
      carried = undefined;
      return delivery;
    }
    const answer = await (pending ?? iterator.next());
    pending = undefined;
    return answer.done === true ? undefined : answer.value;
  };

  return {
    async next() {
      if (ended) return undefined;
      const head = await first();
      if (head === undefined) return undefined;
      const batch = [head];
      const keys = new Set([options.keyOf(head)].filter((key) => key !== undefined));
      options.assembling?.(true);
      try {
        while (batch.length < options.maxSize) {
          const delivery = await readyNow();
          if (delivery === NOT_READY || delivery === undefined) break;
          const key = options.keyOf(delivery);
          if (key !== undefined && keys.has(key)) {
            carried = delivery;
            break;
          }
          if (key !== undefined) keys.add(key);
          batch.push(delivery);
        }
      } finally {
        options.assembling?.(false);
      }
      return batch;
    },
    async return() {
      await iterator.return?.(undefined);
    },
  };
}
