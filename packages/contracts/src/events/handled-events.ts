// A consumer names the event types it acts on once, as a list; its
// subscription's filter, its `ignored` outcome and the docs' events ×
// consumers matrix are derived from that list, so the types it does not act
// on are never written out (issue 30, item 3).
import type { KnownEvent, KnownEventType } from './parse-event.js';

/** The events of `Types`: what a consumer that lists `Types` is handed once it has checked with `isEventOf`. */
export type EventOfTypes<Types extends readonly KnownEventType[]> = Extract<
  KnownEvent,
  { type: Types[number] }
>;

/**
 * True when `event` is one of `types`. The subscription's filter already
 * keeps the others away; an event that arrives anyway (a replay, a store
 * without server-side filtering) is acknowledged as `ignored` by the caller.
 *
 * @example
 * if (!isEventOf(INVENTORY_RESERVATION_EVENTS, event)) return { outcome: 'ignored' };
 */
export function isEventOf<const Types extends readonly KnownEventType[]>(
  types: Types,
  event: KnownEvent,
): event is EventOfTypes<Types> {
  return (types as readonly KnownEventType[]).includes(event.type);
}
