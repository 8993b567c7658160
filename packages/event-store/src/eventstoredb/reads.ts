// Reads on EventStoreDB: a missing stream is an empty one, as in the port.
import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  StreamNotFoundError,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import { comparePositions, type GlobalPosition, type RecordedEvent } from '../port/envelope.js';
import type { ReadAllOptions, ReadStreamOptions } from '../port/event-store.js';
import { assertStreamName } from '../port/validate-append.js';
import { fromEsdbEvent, matchesFilter } from './mapping.js';

/** One stream, as the port reads it. */
export async function readEsdbStream(
  client: EventStoreDBClient,
  name: string,
  options: ReadStreamOptions = {},
) {
  assertStreamName(name);
  const direction = options.direction === 'backwards' ? BACKWARDS : FORWARDS;
  const events: RecordedEvent[] = [];
  try {
    const read = client.readStream(name, {
      direction,
      fromRevision:
        options.fromRevision === undefined
          ? direction === BACKWARDS
            ? END
            : START
          : BigInt(options.fromRevision),
      maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
    });
    for await (const resolved of read)
      if (resolved.event !== undefined) events.push(fromEsdbEvent(resolved.event));
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
  return events;
}

/** $all reads take no server-side filter in this client: filter here, page until enough. */
export async function readEsdbAll(client: EventStoreDBClient, options: ReadAllOptions = {}) {
  const maxCount = options.maxCount ?? 1000;
  const events: RecordedEvent[] = [];
  let from: GlobalPosition | undefined = options.after;
  for (;;) {
    let seen = 0;
    for await (const resolved of client.readAll({
      fromPosition: from ?? START,
      maxCount: maxCount + 1,
    })) {
      seen++;
      const recorded = resolved.event;
      // fromPosition is inclusive: the event at `from` was already returned (or was `after`).
      if (
        recorded === undefined ||
        (from !== undefined && comparePositions(recorded.position, from) <= 0)
      )
        continue;
      from = recorded.position;
      if (recorded.isJson) {
        const event = fromEsdbEvent(recorded);
        if (matchesFilter(options.filter, event)) events.push(event);
        if (events.length === maxCount) return events;
      }
    }
    if (seen <= maxCount) return events;
  }
}
