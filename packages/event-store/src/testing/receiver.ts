// Test helpers that wait for named points (a delivery arrived, a count was
// reached) instead of sleeping.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Pulls from an async iterable in the background and hands items out as they
 * arrive: `next()` waits for the next one, with a deadline that fails loudly.
 *
 * @example
 * const deliveries = receive(store.subscribeToGroup(group));
 * const first = await deliveries.next();
 */
export function receive<T>(source: AsyncIterable<T>) {
  const items: T[] = [];
  let cursor = 0;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const pulled = (async () => {
    try {
      for await (const item of source) {
        items.push(item);
        wake?.();
      }
    } catch (error) {
      failure = error;
      wake?.();
    }
  })();

  const waitForItems = async (count: number, timeoutMs: number, what: string): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (items.length < count) {
      if (failure !== undefined) throw new Error('The subscription failed.', { cause: failure });
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `Timed out after ${String(timeoutMs)} ms waiting for ${what} (have ${String(items.length)} of ${String(count)}).`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  return {
    /** Everything received so far, in arrival order. */
    items,
    async next(timeoutMs = 10_000): Promise<T> {
      await waitForItems(cursor + 1, timeoutMs, 'the next item');
      const item = items[cursor++];
      if (item === undefined) throw new Error('unreachable: the item was counted');
      return item;
    },
    /** Waits until `count` items have arrived in all, and returns them. */
    async atLeast(count: number, timeoutMs = 20_000): Promise<T[]> {
      await waitForItems(count, timeoutMs, `${String(count)} items`);
      cursor = Math.max(cursor, count);
      return items.slice(0, count);
    },
    /** Resolves when the source ends (after its subscription is closed). */
    ended: pulled,
  };
}

/** Polls `check` until it returns a value other than undefined; fails with `what` after the deadline. */
export async function waitUntil<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${String(timeoutMs)} ms waiting until ${what}.`);
    await sleep(20);
  }
}
