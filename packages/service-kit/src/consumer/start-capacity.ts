// How many messages a consumer could start on now: the most its store may
// lease in a round (the port's `canStart`, ADR 0040). A message leased beyond
// it would wait in this consumer for a slot, its lease running, while a peer
// with room could have handled it; behind a slow or held delivery it could
// wait past its lease and reach a peer out of order.

export interface StartCapacity {
  /** A batch's worth of messages for each slot that is free and not taken by the batch being put together. */
  now: () => number;
  /**
   * Told when a batch starts being put together and when it is handed on. It
   * takes a free slot: a lease asked for meanwhile answers after the batch
   * closed, so it is for the next slot.
   */
  assembling: (open: boolean) => void;
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
  let open = false;
  return {
    now: () => {
      const freeSlots = input.concurrency - input.working() - (open ? 1 : 0);
      return Math.max(0, freeSlots) * input.batchSize;
    },
    assembling: (value) => {
      open = value;
    },
  };
}
