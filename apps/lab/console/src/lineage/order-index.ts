// Every order the console has seen, by id, kept current from the saga events
// the console follows from the start of the store: the stuck view reads each
// order's status and deadlines here instead of reading every order's stream.
// It lives in memory and is rebuilt at each start (docs/lineage.md).
import type { FeedItem } from '../api/console.api.js';
import { progressAfter, type OrderProgress } from './order-progress.js';

export interface OrderIndex {
  /** Folds a feed item in; anything but an order's saga event changes nothing. */
  apply(item: FeedItem): void;
  get(orderId: string): OrderProgress | undefined;
  all(): IterableIterator<OrderProgress>;
}

/**
 * @example
 * const orders = createOrderIndex();
 * feed.subscribe(orders.apply); // before the saga events start to flow
 */
export function createOrderIndex(): OrderIndex {
  const orders = new Map<string, OrderProgress>();
  return {
    apply(item) {
      if (item.kind !== 'saga-event' || item.event.orderId === null) return;
      const { orderId, streamName, type, data } = item.event;
      const next = progressAfter(orders.get(orderId), { orderId, streamName, type, data });
      if (next !== undefined) orders.set(orderId, next);
    },
    get: (orderId) => orders.get(orderId),
    all: () => orders.values(),
  };
}
