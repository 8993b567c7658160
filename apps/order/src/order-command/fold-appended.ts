// The pure half of the order's command handler: the order after an append,
// folded in memory from the loaded order and the events just appended, so a
// command answers without reading the stream a second time.
import type { OrderEvent } from '@effectively-once/contracts';
import type { AppendResult } from '@effectively-once/event-store';
import { orderEventId } from '../adapters/eventStore/order-stream.js';
import { occurredAtOf, type LoadedOrder, type TimelineEntry } from '../domain/loaded-order.js';
import { evolve } from '../domain/order.evolve.js';

export interface AppendedEvents {
  readonly events: readonly OrderEvent[];
  /** The cause the events' ids derive from (AppendOrderEventsInput's causeId). */
  readonly causeId: string;
  /** The store's answer to the append. */
  readonly appended: AppendResult;
}

/**
 * The loaded order with the events just appended folded in: what a fresh
 * `loadOrder` would return, as long as nobody appended after them.
 *
 * @example
 * const next = foldAppended(loaded, { events: decision.events, causeId, appended });
 */
export function foldAppended(loaded: LoadedOrder, input: AppendedEvents): LoadedOrder {
  const { events, causeId, appended } = input;
  if (events.length === 0) return loaded;
  // The store answers with the revision of the batch's last event.
  const firstRevision = appended.nextExpectedRevision - BigInt(events.length - 1);
  const added = events.map((event, index): TimelineEntry => ({
    eventId: orderEventId(causeId, index),
    type: event.type,
    version: Number(firstRevision + BigInt(index)),
    occurredAt: occurredAtOf(event),
  }));
  return {
    state: events.reduce(evolve, loaded.state),
    revision: appended.nextExpectedRevision,
    timeline: [...loaded.timeline, ...added],
    traceId: loaded.traceId,
    traceparent: loaded.traceparent,
  };
}
