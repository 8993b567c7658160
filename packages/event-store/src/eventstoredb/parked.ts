// A group's parked messages on EventStoreDB: those the server parked from the
// group itself, and those parked from its retry stream (ADR 0009), each shown
// as the original event.
import {
  StreamNotFoundError,
  type EventStoreDBClient,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import type { ParkedMessage } from '../port/subscription.js';
import { fromEsdbEvent } from './mapping.js';
import { parseRetryRecord, readOriginal, retryStreamOf } from './retry-schedule.js';

const parkedStreamOf = (source: string, group: string) =>
  `$persistentsubscription-${source}::${group}-parked`;

/**
 * An event this port cannot decode is parked for that reason (binary data,
 * metadata that is not an object); it is listed with what can be read, data
 * left out, and the reason, found again by decoding it.
 */
function toParked(event: EsdbRecordedEvent): ParkedMessage {
  try {
    return { event: fromEsdbEvent(event), reason: undefined };
  } catch (error) {
    return {
      event: {
        id: event.id,
        type: event.type,
        data: null,
        metadata: { schemaVersion: 1 },
        streamName: event.streamId,
        revision: event.revision,
        position: event.position ?? { commit: 0n, prepare: 0n },
        createdAt: event.created,
      },
      reason: `cannot decode: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

async function readLinks(client: EventStoreDBClient, stream: string) {
  const events: EsdbRecordedEvent[] = [];
  try {
    for await (const resolved of client.readStream(stream, { resolveLinkTos: true })) {
      if (resolved.event !== undefined) events.push(resolved.event);
    }
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
  return events;
}

/**
 * @example
 * const parked = await listEsdbParked(client, 'billing-v1');
 */
export async function listEsdbParked(
  client: EventStoreDBClient,
  group: string,
): Promise<ParkedMessage[]> {
  const parked = (await readLinks(client, parkedStreamOf('$all', group))).map(toParked);
  for (const recordEvent of await readLinks(client, parkedStreamOf(retryStreamOf(group), group))) {
    const record = parseRetryRecord(recordEvent);
    if ('invalid' in record) continue; // not one of the adapter's records: nothing to show
    const original = await readOriginal(client, record);
    if (original !== undefined) parked.push(toParked(original));
  }
  return parked;
}
