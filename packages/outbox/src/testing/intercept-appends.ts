// Fault injection at the one seam the relay has to the outside: the store's
// appends. The store underneath is real; only the calls are intercepted, one
// stream at a time.
import {
  appendEachInTurn,
  type AppendResult,
  type EventStore,
  type NewEvent,
} from '@effectively-once/event-store';

export interface AppendCall {
  streamName: string;
  events: readonly NewEvent[];
  /** Performs the real append. */
  append(): Promise<AppendResult>;
}

/**
 * @example
 * const crashing = interceptAppends(store, async (call) => {
 *   await call.append();
 *   throw new Error('crashed before marking');
 * });
 */
export function interceptAppends(
  store: EventStore,
  intercept: (call: AppendCall) => Promise<AppendResult>,
): EventStore {
  const appendToStream: EventStore['appendToStream'] = (streamName, events, options) =>
    intercept({
      streamName,
      events,
      append: () => store.appendToStream(streamName, events, options),
    });
  return {
    ...store,
    appendToStream,
    // Each stream of a batch is its own intercepted call, so a test can fail
    // one stream of several; the batch then goes one stream after another.
    appendToStreams: (appends) => appendEachInTurn(appendToStream, appends),
  };
}

/** A point a test waits for (`reached`) and then lets pass (`open`). */
export function gate() {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (release = resolve));
  return {
    reached,
    open: () => release(),
    /** Called by the code under test: marks the point reached, then waits to be let through. */
    pass: async () => {
      arrive();
      await opened;
    },
  };
}
