// How many messages a consumer could start on now: the most its store may
// lease in a round (the port's `canStart`, ADR 0040). A message leased beyond
// it would wait in this consumer for a slot, its lease running, while a peer
// with room could have handled it; behind a slow or held delivery it could
// wait past its lease and reach a peer out of order.

export interface StartCapacity {
  /**
   * A batch's worth of messages for each free slot, less the messages the
   * consumer has already read and not yet handed to a slot (they are for
   * those slots).
   */
  now: () => number;
  /** Told how many deliveries the consumer holds, read from the store and not yet handed to a slot. */
  holding: (count: number) => void;
  /**
   * Slots free to start a batch now: what is ready is shared among them
   * (deliveryBatches, ADR 0045), so that a message a free slot could start
   * does not wait in another slot's batch.
   */
  freeSlots: () => number;
}

/**
 * @example
 * const capacity = startCapacity({ concurrency: 4, batchSize: 16, working: () => inFlight.working() });
 * store.subscribeToGroup(group, { maxInFlight: 64, canStart: capacity.now });
 */
export function startCapacity(input: {
  concurrency: number;
  batchSize: number;
  /**
   * Slots whose batch is still at work. A batch whose every delivery is
   * acked or handed back counts free: those acks ride with the next round,
   * the very round that leases for its slot.
   */
  working: () => number;
}): StartCapacity {
  let held = 0;
  const freeSlots = (): number => Math.max(0, input.concurrency - input.working());
  return {
    now: () => Math.max(0, freeSlots() * input.batchSize - held),
    holding: (count) => {
      held = count;
    },
    freeSlots,
  };
}
