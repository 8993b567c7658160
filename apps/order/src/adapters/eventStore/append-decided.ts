// The write half of one load-decide-append: append what `decide` returned at
// the loaded revision, and answer with the order those events make, folded in
// memory from the loaded order. The stream is not read a second time.
import type { OrderEvent } from '@effectively-once/contracts';
import type { AppendResult, EventStore } from '@effectively-once/event-store';
import { evolve } from '../../domain/order.evolve.js';
import {
  appendOrderEvents,
  occurredAtOf,
  orderEventId,
  type AppendOrderEventsInput,
  type LoadedOrder,
  type TimelineEntry,
} from './order-stream.js';

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
  };
}

/**
 * Appends the decided events at `loaded`'s revision and returns the order
 * after them. Throws WrongExpectedRevisionError when another writer got there
 * first; nothing is appended when there are no events.
 *
 * @example
 * const next = await appendDecided(store, loaded, { orderId, events: decision.events, causeId });
 */
export async function appendDecided(
  store: EventStore,
  loaded: LoadedOrder,
  input: Omit<AppendOrderEventsInput, 'expectedRevision'>,
): Promise<LoadedOrder> {
  const appended = await appendOrderEvents(store, { ...input, expectedRevision: loaded.revision });
  if (appended === undefined) return loaded;
  return foldAppended(loaded, { events: input.events, causeId: input.causeId, appended });
}
