// Records which streams a piece of code reads, to prove what it does not read.
import type { EventStore } from '@effectively-once/event-store';

/**
 * @example
 * const { store, reads } = recordStreamReads(env.store);
 * await cancelOrder({ ...env, store }, { orderId });
 * expect(reads).toEqual([orderStream(orderId)]);
 */
export function recordStreamReads(store: EventStore): { store: EventStore; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    store: {
      ...store,
      readStream: (streamName, options) => {
        reads.push(streamName);
        return store.readStream(streamName, options);
      },
    },
  };
}
