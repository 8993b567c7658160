// Makes a race happen on demand: before each of the next `times` appends, a
// rival writes to the same stream first, as a concurrent request or saga step would.
import { appendEachInTurn, type EventStore } from '@effectively-once/event-store';

/**
 * @example
 * const store = withRivalAppends(env.store, { times: 1, rival: (stream) => env.store.appendToStream(stream, [...], { expectedRevision: 'any' }) });
 */
export function withRivalAppends(
  store: EventStore,
  input: { times: number; rival: (streamName: string) => Promise<unknown> },
): EventStore {
  let remaining = input.times;
  const appendToStream: EventStore['appendToStream'] = async (streamName, events, options) => {
    if (remaining > 0) {
      remaining--;
      await input.rival(streamName);
    }
    return store.appendToStream(streamName, events, options);
  };
  return {
    ...store,
    appendToStream,
    // A rival before each stream's append, as before each single one.
    appendToStreams: (appends) => appendEachInTurn(appendToStream, appends),
  };
}
