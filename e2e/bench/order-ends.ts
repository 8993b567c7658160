// When each order ended, observed on the event store itself (OrderConfirmed or
// OrderCancelled in its order stream), not by polling the API: what the
// benches measure latency to.
import type { EventStore } from '@effectively-once/event-store';

export interface OrderEnds {
  /** performance.now() of the order's OrderConfirmed, or -1 when it was cancelled. */
  ended: Map<string, number>;
  /** Called when the order ends; set by whoever waits for it. */
  waiters: Map<string, () => void>;
  close(): Promise<void>;
}

/**
 * @example
 * const ends = followOrderEnds(store);
 * // ... place orders, wait on ends.waiters ...
 * await ends.close();
 */
export function followOrderEnds(store: EventStore): OrderEnds {
  const ended = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const subscription = store.subscribeToAll({
    filter: { kind: 'event_type', types: ['OrderConfirmed', 'OrderCancelled'] },
  });
  const following = (async () => {
    for await (const event of subscription) {
      const orderId = event.streamName.slice('order-'.length);
      ended.set(orderId, event.type === 'OrderConfirmed' ? performance.now() : -1);
      waiters.get(orderId)?.();
    }
  })();
  return {
    ended,
    waiters,
    close: async () => {
      await subscription.close();
      await following.catch(() => undefined);
    },
  };
}
