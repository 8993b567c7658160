/**
 * Deliveries from two subscriptions (the group's and its retry stream's) in
 * one iterable: pumps push, the consumer takes; a pump's failure ends the
 * iteration with that error.
 *
 * @example
 * const queue = deliveryQueue<Delivery>();
 * queue.push(delivery);
 * for (let next = await queue.take(); next !== undefined; next = await queue.take()) yield next;
 */
export function deliveryQueue<T>() {
  const items: T[] = [];
  let wake: (() => void) | undefined;
  let failure: { error: unknown } | undefined;
  let ended = false;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(item: T): void {
      items.push(item);
      notify();
    },
    fail(error: unknown): void {
      failure ??= { error };
      notify();
    },
    end(): void {
      ended = true;
      notify();
    },
    /** The next item; undefined once ended; throws once failed. */
    async take(): Promise<T | undefined> {
      for (;;) {
        if (failure !== undefined) throw failure.error;
        const item = items.shift();
        if (item !== undefined) return item;
        if (ended) return undefined;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
