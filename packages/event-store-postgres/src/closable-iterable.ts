/**
 * An async generator as a subscription: iterable, and closable from outside.
 * `stop` flags the loop and wakes it, so `return()` takes effect at once
 * instead of after the next poll.
 */
export function closableIterable<T>(
  iterator: AsyncGenerator<T, void, undefined>,
  stop: () => void,
) {
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async (): Promise<void> => {
      stop();
      await iterator.return(undefined);
    },
  };
}
