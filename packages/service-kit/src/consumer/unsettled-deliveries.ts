/**
 * The deliveries a consumer holds and has not yet acked or nacked, for the
 * eo_consumer_oldest_unacked_delivery_seconds gauge: a stuck handler shows as
 * a growing age long before the store's message timeout redelivers its message.
 *
 * @example
 * const unsettled = unsettledDeliveries();
 * const settled = unsettled.add();
 * try { await handle(delivery); } finally { settled(); }
 */
export function unsettledDeliveries(now: () => number = () => performance.now()) {
  // A Map keeps insertion order, so the first entry is always the oldest.
  const startedAt = new Map<symbol, number>();
  return {
    add(): () => void {
      const key = Symbol('delivery');
      startedAt.set(key, now());
      return () => startedAt.delete(key);
    },
    oldestAgeSeconds(): number {
      const [oldest] = startedAt.values();
      return oldest === undefined ? 0 : (now() - oldest) / 1000;
    },
    get size(): number {
      return startedAt.size;
    },
  };
}
