// The channels appends are announced on. Every append goes out on the general
// channel, and once more on a channel of each event type it holds. A
// subscriber whose filter names event types LISTENs only to those types'
// channels, so PostgreSQL does not send it, nor its process read and parse,
// the appends of the types it never handles: with one consumer per group the
// saga's five consumers used to hear all 7 appends of an order each (35
// notifications), with two replicas of each service 70, most of them to say
// "not for you" (docs/capacity.md). A subscriber with no type filter (every
// event, stream prefixes) listens to the general channel, as every one did
// before. A group also has a channel of its own, for what concerns its
// consumers alone (a replay of parked messages).
import { fnv1a32 } from './fnv1a.js';
import type { SubscriptionFilter } from '@effectively-once/event-store/port/subscription';

/** Every append, for subscribers without a type filter. */
export const APPENDED_CHANNEL = 'es_event_appended';

/**
 * Which channels a subscriber LISTENs to: `per-type`, only its event types'
 * channels when its filter names types (the default); `one`, the general
 * channel whatever its filter (as before): for a store whose appenders are
 * older than the type channels, which send on the general channel alone.
 */
export type NotifyChannels = 'per-type' | 'one';

/** PostgreSQL's identifiers, channel names included, have at most NAMEDATALEN - 1 bytes. */
const MAX_CHANNEL_BYTES = 63;
const TYPE_CHANNEL_PREFIX = 'es_type:';

/**
 * The channel of an event type: its name after a prefix, or, past 63 bytes
 * (where pg_notify refuses the name and LISTEN would cut it short), its hash.
 * Two long names with one hash share a channel: each of their subscribers
 * then also hears the other's appends and lets them pass (its filter), an
 * extra notification, never a missed one.
 *
 * @example
 * typeChannel('OrderPlaced'); // 'es_type:OrderPlaced'
 */
export function typeChannel(eventType: string): string {
  const channel = `${TYPE_CHANNEL_PREFIX}${eventType}`;
  if (Buffer.byteLength(channel) <= MAX_CHANNEL_BYTES) return channel;
  return `${TYPE_CHANNEL_PREFIX}#${fnv1a32(eventType).toString(16)}`;
}

/**
 * The channel of one subscription group (by its id).
 *
 * @example
 * groupChannel(7); // 'es_group:7'
 */
export function groupChannel(groupId: number): string {
  return `es_group:${String(groupId)}`;
}

/**
 * The channels a subscriber with this filter LISTENs to.
 *
 * @example
 * channelsToListen({ kind: 'event_type', types: ['OrderPlaced'] }, 'per-type'); // ['es_type:OrderPlaced']
 */
export function channelsToListen(
  filter: SubscriptionFilter | undefined,
  mode: NotifyChannels,
): string[] {
  if (mode === 'per-type' && filter?.kind === 'event_type') {
    return [...new Set(filter.types.map(typeChannel))];
  }
  return [APPENDED_CHANNEL];
}
