// The deliveries a consumer has handed to its handler and that are not settled
// yet. A loop that ends on a failure waits for them before it gives its leases
// back (persistent-subscription.ts): a handler still running must not find
// its message handed to a peer.

/**
 * @example
 * const handedOut = handedOutDeliveries();
 * handedOut.add(position);          // before the delivery is yielded
 * handedOut.settled(position);      // when its ack or nack has resolved
 * await handedOut.allSettled(30_000);
 */
export function handedOutDeliveries() {
  const unsettled = new Set<number>();
  let onEmpty: (() => void) | undefined;

  return {
    add(position: number): void {
      unsettled.add(position);
    },
    settled(position: number): void {
      unsettled.delete(position);
      if (unsettled.size === 0) onEmpty?.();
    },
    /** Resolves once none is unsettled, or after `timeoutMs`, whichever comes first. */
    allSettled(timeoutMs: number): Promise<void> {
      if (unsettled.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        function done(): void {
          clearTimeout(timer);
          onEmpty = undefined;
          resolve();
        }
        onEmpty = done;
      });
    },
  };
}
