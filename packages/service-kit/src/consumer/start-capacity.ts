// How many messages a consumer could start on now: the most its store may
// lease in a round (the port's `canStart`, ADR 0040). A message leased beyond
// it would wait in this consumer for a slot, its lease running, while a peer
// with room could have handled it; behind a slow or held delivery it could
// wait past its lease and reach a peer out of order.

export interface StartCapacity {
  /**
   * A batch's worth of messages for each slot that is free and not taken by
   * the batch being put together, less the deliveries read ahead for those
   * slots and not yet handed to one.
   */
  now: () => number;
  /**
   * Told when a batch starts being put together and when it is handed on. It
   * takes a free slot: a lease asked for meanwhile answers after the batch
   * closed, so it is for the other slots.
   */
  assembling: (open: boolean) => void;
  /** Told how many deliveries are read ahead: read from the store, in no batch yet. */
  readAhead: (count: number) => void;
  /**
   * Slots free to start a batch now, the one being put together included:
   * what is ready is shared among them (deliveryBatches, ADR 0045), so that
   * a message a free slot could start does not wait in another slot's batch.
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
  let open = false;
  let readAhead = 0;
  const freeSlots = (): number => Math.max(0, input.concurrency - input.working());
  return {
    now: () => {
      const slots = Math.max(0, freeSlots() - (open ? 1 : 0));
      return Math.max(0, slots * input.batchSize - readAhead);
    },
    assembling: (value) => {
      open = value;
    },
    readAhead: (count) => {
      readAhead = count;
    },
    freeSlots,
  };
}
