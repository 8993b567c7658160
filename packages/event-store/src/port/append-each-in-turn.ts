// `appendToStreams` for a back end or wrapper with nothing better to offer:
// one `appendToStream` after another, each outcome kept, none stopping the rest.
import { InvalidInputError } from './errors.js';
import type { EventStore, SettledAppend, StreamAppend } from './event-store.js';

/** Refuses what is not a list of appends before anything is written, the same way on every back end. */
export function assertAppendList(appends: unknown): asserts appends is readonly StreamAppend[] {
  if (!Array.isArray(appends)) {
    throw new InvalidInputError(
      'INVALID_EVENT',
      'appendToStreams takes an array of { streamName, events, expectedRevision }. Nothing was written.',
    );
  }
}

/**
 * Appends each stream in the order given, waiting for one before the next, so
 * that a stream named twice sees its first append. An append that throws is
 * that stream's `rejected` outcome and the next one still runs.
 *
 * @example
 * appendToStreams: (appends) => appendEachInTurn(appendToStream, appends),
 */
export async function appendEachInTurn(
  appendToStream: EventStore['appendToStream'],
  appends: readonly StreamAppend[],
): Promise<SettledAppend[]> {
  assertAppendList(appends);
  const settled: SettledAppend[] = [];
  for (const append of appends) {
    try {
      const { streamName, events, expectedRevision } = append;
      const value = await appendToStream(streamName, events, { expectedRevision });
      settled.push({ status: 'fulfilled', value });
    } catch (reason) {
      settled.push({ status: 'rejected', reason });
    }
  }
  return settled;
}
