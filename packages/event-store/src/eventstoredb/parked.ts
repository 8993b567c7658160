// A group's parked messages on EventStoreDB: those the server parked from the
// group itself, and those parked from its retry stream (ADR 0009), each shown
// as the original event.
import {
  PersistentSubscriptionDoesNotExistError,
  StreamNotFoundError,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { SubscriptionGroupError } from '../port/errors.js';
import type { ParkedMessage } from '../port/subscription.js';
import type { EsdbClient } from './esdb-client.js';
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

/** A parked stream's entries: each linked event, and the link's revision in that stream. */
interface ParkedLink {
  readonly event: EsdbRecordedEvent;
  readonly linkRevision: bigint | undefined;
}

async function readLinks(client: EsdbClient, stream: string): Promise<ParkedLink[]> {
  const links: ParkedLink[] = [];
  try {
    for await (const resolved of client.readStream(stream, { resolveLinkTos: true })) {
      if (resolved.event !== undefined) {
        links.push({ event: resolved.event, linkRevision: resolved.link?.revision });
      }
    }
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
  return links;
}

/** The original event id behind each entry of the retry stream's parked list. */
function retryParkedIds(links: readonly ParkedLink[]): (string | undefined)[] {
  return links.map(({ event }) => {
    const record = parseRetryRecord(event);
    return 'invalid' in record ? undefined : record.eventId;
  });
}

/**
 * @example
 * const parked = await listEsdbParked(client, 'billing-v1');
 */
export async function listEsdbParked(client: EsdbClient, group: string): Promise<ParkedMessage[]> {
  const parked = (await readLinks(client, parkedStreamOf('$all', group))).map(({ event }) =>
    toParked(event),
  );
  for (const { event } of await readLinks(client, parkedStreamOf(retryStreamOf(group), group))) {
    const record = parseRetryRecord(event);
    if ('invalid' in record) continue; // not one of the adapter's records: nothing to show
    const original = await readOriginal(client, record);
    if (original !== undefined) parked.push(toParked(original));
  }
  return parked;
}

async function ignoreMissingGroup(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof PersistentSubscriptionDoesNotExistError)) throw error;
  }
}

/**
 * How far into one parked list a selection reaches: the server replays a
 * parked stream from its oldest entry up to a revision (`stopAt`, exclusive),
 * so only a run of wanted messages from the front can be replayed.
 */
function stopAtFor(
  links: readonly ParkedLink[],
  ids: readonly (string | undefined)[],
  wanted: ReadonlySet<string>,
  taken: Set<string>,
): bigint | undefined {
  let stopAt: bigint | undefined;
  for (const [index, link] of links.entries()) {
    const id = ids[index];
    if (id === undefined || !wanted.has(id) || link.linkRevision === undefined) break;
    taken.add(id);
    stopAt = link.linkRevision + 1n;
  }
  return stopAt;
}

/**
 * Replays both parked lists, the group's own and its retry stream's: all of
 * them, or only `eventIds`. A selection must be a run from the front of each
 * list (EventStoreDB has no replay of one message out of the middle); one
 * that skips an older parked message is refused before anything is replayed.
 *
 * @example
 * await replayEsdbParked(client, 'billing-v1', [oldestParkedId]);
 */
export async function replayEsdbParked(
  client: EsdbClient,
  group: string,
  eventIds?: readonly string[],
): Promise<void> {
  const retryStream = retryStreamOf(group);
  if (eventIds === undefined) {
    await client.replayParkedMessagesToAll(group);
    await ignoreMissingGroup(() => client.replayParkedMessagesToStream(retryStream, group));
    return;
  }
  const wanted = new Set(eventIds);
  const own = await readLinks(client, parkedStreamOf('$all', group));
  const retried = await readLinks(client, parkedStreamOf(retryStream, group));
  const ownIds = own.map(({ event }) => event.id);
  const retriedIds = retryParkedIds(retried);
  const taken = new Set<string>();
  const ownStop = stopAtFor(own, ownIds, wanted, taken);
  const retriedStop = stopAtFor(retried, retriedIds, wanted, taken);
  const skipped = [...ownIds, ...retriedIds].filter(
    (id): id is string => id !== undefined && wanted.has(id) && !taken.has(id),
  );
  if (skipped.length > 0) {
    throw new SubscriptionGroupError(
      'PARKED_REPLAY_OUT_OF_ORDER',
      `EventStoreDB replays the parked messages of "${group}" in the order they were parked; ${skipped.join(', ')} wait(s) behind an older parked message that was not selected. Replay the older ones first, or all of them.`,
    );
  }
  if (ownStop !== undefined) await client.replayParkedMessagesToAll(group, { stopAt: ownStop });
  if (retriedStop !== undefined) {
    await client.replayParkedMessagesToStream(retryStream, group, { stopAt: retriedStop });
  }
}
