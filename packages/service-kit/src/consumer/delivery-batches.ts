// Reads a subscription in batches: the first delivery is waited for, the
// others are taken only if the store has already leased them (a backlog), so
// with one message ready a batch is that message alone and nothing waits for
// company: latency at low load does not move.
//
// What is ready is shared among the slots free to start it: a batch's
// messages run one after another in one transaction, and each is acked only
// after the last one's work and the COMMIT. So two messages ready with two
// slots free start at once, each alone, as with batching off; a batch grows
// only beyond what the free slots can start (issue 32: batching every round's
// lease into one batch, slots standing free, doubled the time of a batched
// delivery at 25 orders/s).
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
 * Batches of up to `maxSize` deliveries, the ready ones spread over the free
 * slots. Two deliveries with one ordering key never share a batch: the later
 * one opens a later batch. That batch may start in another slot at once, so
 * what keeps a key's messages in order is the store, which hands out a key's
 * next message only once the one before is settled (docs/ordering-keys.md).
 *
 * @example
 * const batches = deliveryBatches(subscription, { maxSize: 16, keyOf: () => undefined, freeSlots: () => 4 - inFlight.working() });
 * for (let batch = await batches.next(); batch !== undefined; batch = await batches.next()) dispatch(batch);
 */
export function deliveryBatches(
  source: AsyncIterable<Delivery>,
  options: {
    maxSize: number;
    keyOf: (delivery: Delivery) => string | undefined;
    /** Told when a batch starts being put together and when it is complete (StartCapacity). */
    assembling?: (open: boolean) => void;
    /** Told how many deliveries are read ahead, in no batch yet: the store leases less by them. */
    readAhead?: (count: number) => void;
    /**
     * Slots free to start a batch now, the one being put together included.
     * Absent: one, so a batch takes all that is ready up to `maxSize`.
     */
    freeSlots?: () => number;
  },
): DeliveryBatches {
  const iterator = source[Symbol.asyncIterator]();
  // A read that did not answer at once: the next batch starts with its answer.
  let pending: Promise<IteratorResult<Delivery>> | undefined;
  // Read from the source, not yet in a batch, in the order they came.
  const ready: Delivery[] = [];
  let ended = false;
  const slots = (): number => Math.max(1, options.freeSlots?.() ?? 1);

  /** The next delivery if the source has it now, without waiting for a round of the store. */
  const readyNow = async (): Promise<Delivery | typeof NOT_READY | undefined> => {
    // A read left unanswered by the last batch is still this consumer's next delivery.
    pending ??= iterator.next();
    const answer = await Promise.race([pending, nextTurn(NOT_READY)]);
    if (answer === NOT_READY) return NOT_READY;
    pending = undefined;
    if (answer.done === true) ended = true;
    return answer.done === true ? undefined : answer.value;
  };

  const first = async (): Promise<Delivery | undefined> => {
    const waiting = ready.shift();
    if (waiting !== undefined) return waiting;
    if (ended) return undefined;
    const answer = await (pending ?? iterator.next());
    pending = undefined;
    return answer.done === true ? undefined : answer.value;
  };

  /** Reads what the source has now, until `ready` holds `count` (never waiting for a round). */
  const readAhead = async (count: number): Promise<void> => {
    while (!ended && ready.length < count) {
      const delivery = await readyNow();
      if (delivery === NOT_READY || delivery === undefined) return;
      ready.push(delivery);
      options.readAhead?.(ready.length);
    }
  };

  /** The head's share of what is ready: as many batches as free slots, none over `maxSize`. */
  const batchFrom = (head: Delivery, freeSlots: number): Delivery[] => {
    const size = Math.min(options.maxSize, Math.ceil((ready.length + 1) / freeSlots));
    const batch = [head];
    const keys = new Set([options.keyOf(head)].filter((key) => key !== undefined));
    for (let next = ready[0]; next !== undefined && batch.length < size; next = ready[0]) {
      const key = options.keyOf(next);
      // Stop at a repeated key rather than pass over it: the rest keeps its order.
      if (key !== undefined && keys.has(key)) break;
      if (key !== undefined) keys.add(key);
      batch.push(next);
      ready.shift();
    }
    return batch;
  };

  return {
    async next() {
      const head = await first();
      if (head === undefined) return undefined;
      if (options.maxSize === 1) return [head];
      options.assembling?.(true);
      options.readAhead?.(ready.length);
      try {
        const freeSlots = slots();
        await readAhead(freeSlots * options.maxSize - 1);
        return batchFrom(head, freeSlots);
      } finally {
        options.readAhead?.(ready.length);
        options.assembling?.(false);
      }
    },
    async return() {
      await iterator.return?.(undefined);
    },
  };
}
