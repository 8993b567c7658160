// What a NOTIFY after an append says: the streams and event types appended
// since the last one. A subscriber wakes only when its filter matches one of
// them, so an append of payment events does not wake the order groups. An
// empty or unreadable payload (too many names, a replay, an older writer)
// wakes everyone: a wasted wake costs a query, a missed one a poll interval.
// The same appends also go out once per event type, on that type's channel
// (append-channels.ts), naming only the streams that received the type.
import { z } from 'zod';
import type { SubscriptionFilter } from '@effectively-once/event-store/port/subscription';
import { APPENDED_CHANNEL, typeChannel } from './append-channels.js';

/** NOTIFY payloads must stay under 8000 bytes; past this, announce "everything". */
const MAX_PAYLOAD_CHARS = 7_000;

export interface Appended {
  streamName: string;
  types: readonly string[];
}

const AnnouncementSchema = z.object({
  streams: z.array(z.string()),
  types: z.array(z.string()),
});
type Announcement = z.infer<typeof AnnouncementSchema>;

/**
 * @example
 * announce([{ streamName: 'order-42', types: ['OrderPlaced'] }]); // '{"streams":["order-42"],"types":["OrderPlaced"]}'
 */
export function announce(appended: readonly Appended[]): string {
  const announcement: Announcement = {
    streams: [...new Set(appended.map((append) => append.streamName))],
    types: [...new Set(appended.flatMap((append) => append.types))],
  };
  const payload = JSON.stringify(announcement);
  return payload.length > MAX_PAYLOAD_CHARS ? '' : payload;
}

/** One NOTIFY: a channel and what it says. */
export interface ChannelAnnouncement {
  channel: string;
  payload: string;
}

/**
 * What to send for these appends: the whole announcement on the general
 * channel, and on each event type's channel the streams that received it.
 *
 * @example
 * announceOnChannels([{ streamName: 'order-42', types: ['OrderPlaced'] }]);
 * // [{ channel: 'es_event_appended', payload: '{"streams":["order-42"],"types":["OrderPlaced"]}' },
 * //  { channel: 'es_type:OrderPlaced', payload: '{"streams":["order-42"],"types":["OrderPlaced"]}' }]
 */
export function announceOnChannels(appended: readonly Appended[]): ChannelAnnouncement[] {
  const types = [...new Set(appended.flatMap((append) => append.types))];
  return [
    { channel: APPENDED_CHANNEL, payload: announce(appended) },
    ...types.map((type) => ({
      channel: typeChannel(type),
      payload: announce(
        appended
          .filter((append) => append.types.includes(type))
          .map((append) => ({ streamName: append.streamName, types: [type] })),
      ),
    })),
  ];
}

function parse(payload: string): Announcement | undefined {
  if (payload === '') return undefined;
  try {
    const parsed = AnnouncementSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The streams an announcement names; undefined when it names none readably
 * (then it is about everything).
 *
 * @example
 * announcedStreams(announce([{ streamName: 'order-42', types: ['OrderPlaced'] }])); // ['order-42']
 */
export function announcedStreams(payload: string): readonly string[] | undefined {
  return parse(payload)?.streams;
}

/**
 * Whether a subscriber with this filter should wake for the announcement.
 *
 * @example
 * wakesFor({ kind: 'event_type', types: ['OrderPlaced'] }, announce([{ streamName: 'payment-1', types: ['PaymentAuthorized'] }])); // false
 */
export function wakesFor(filter: SubscriptionFilter | undefined, payload: string): boolean {
  const announcement = parse(payload);
  if (announcement === undefined || filter === undefined) return true;
  switch (filter.kind) {
    case 'all':
      return true;
    case 'stream_prefix':
      return announcement.streams.some((stream) =>
        filter.prefixes.some((prefix) => stream.startsWith(prefix)),
      );
    case 'event_type':
      return announcement.types.some((type) => filter.types.includes(type));
  }
}
