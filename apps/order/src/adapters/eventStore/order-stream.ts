// The Order aggregate in the event store: load = read the stream and fold
// `evolve`; append = write the decided events at the loaded revision, with ids
// derived from their cause, so a retry writes the same events or nothing.
import {
  ContractViolationError,
  isKnownEventType,
  orderEvents,
  orderStream,
  parseEvent,
  serializeEvent,
  type KnownEvent,
  type OrderEvent,
} from '@effectively-once/contracts';
import type {
  AppendResult,
  EventStore,
  NewEvent,
  RecordedEvent,
} from '@effectively-once/event-store';
import { v5 as uuidv5 } from 'uuid';
import { evolve } from '../../domain/order.evolve.js';
import {
  occurredAtOf,
  traceIdOfTraceparent,
  type LoadedOrder,
  type TimelineEntry,
} from '../../domain/loaded-order.js';
import { initialOrderState } from '../../domain/order.state.js';

/** The uuid v5 namespace of order event ids. Fixed forever: changing it changes every id. */
export const ORDER_EVENT_ID_NAMESPACE = '3f0d5a8e-5b4c-4d7e-9a61-2c8f4e1b7d90';

/**
 * The id of the `index`-th event decided because of `causeId` (the triggering
 * event's id, or a command name and order id): the same cause always yields
 * the same ids, which the store recognises when an append is retried.
 *
 * @example
 * orderEventId(recorded.id, 0);
 */
export function orderEventId(causeId: string, index: number): string {
  return uuidv5(`${causeId}:${String(index)}`, ORDER_EVENT_ID_NAMESPACE);
}

const ORDER_EVENT_TYPES: ReadonlySet<string> = new Set(orderEvents.map((event) => event.type));

function isOrderEvent(event: KnownEvent): event is OrderEvent {
  return ORDER_EVENT_TYPES.has(event.type);
}

/**
 * The order's stream holds an event this code cannot fold into an order: a
 * broken or unknown one, or another service's. The stream never changes back,
 * so every read of it fails the same way: a consumer parks what needed it.
 */
export class UnreadableOrderStreamError extends Error {
  override readonly name = 'UnreadableOrderStreamError';
}

function toOrderEvent(recorded: RecordedEvent): OrderEvent {
  const where = `${recorded.streamName}@${String(recorded.revision)}`;
  let event: KnownEvent;
  try {
    event = parseEvent({
      type: recorded.type,
      data: recorded.data,
      schemaVersion: recorded.metadata.schemaVersion,
    });
  } catch (error) {
    if (error instanceof ContractViolationError) {
      throw new UnreadableOrderStreamError(`${where} holds ${error.message}`, { cause: error });
    }
    throw error;
  }
  if (!isOrderEvent(event)) {
    // Only this service writes order streams; anything else there is a bug.
    const what = isKnownEventType(recorded.type) ? 'a foreign event' : 'an unknown event';
    throw new UnreadableOrderStreamError(`${where} holds ${what} (${recorded.type}).`);
  }
  return event;
}

/**
 * Reads an order's stream and rebuilds its state.
 *
 * @example
 * const { state, revision } = await loadOrder(store, orderId);
 */
export async function loadOrder(store: EventStore, orderId: string): Promise<LoadedOrder> {
  const recorded = await store.readStream(orderStream(orderId));
  let state = initialOrderState();
  const timeline: TimelineEntry[] = [];
  for (const entry of recorded) {
    const event = toOrderEvent(entry);
    state = evolve(state, event);
    timeline.push({
      eventId: entry.id,
      type: event.type,
      version: Number(entry.revision),
      occurredAt: occurredAtOf(event),
    });
  }
  const last = recorded.at(-1);
  const traceparent = recorded[0]?.metadata.traceparent;
  return {
    state,
    revision: last === undefined ? 'no_stream' : last.revision,
    timeline,
    traceId: traceIdOfTraceparent(traceparent),
    traceparent,
  };
}

export interface AppendOrderEventsInput {
  readonly orderId: string;
  readonly events: readonly OrderEvent[];
  /** The loaded revision: the append fails with WrongExpectedRevisionError if the stream moved on. */
  readonly expectedRevision: bigint | 'no_stream';
  /** The id the events' ids derive from; also their causation id. */
  readonly causeId: string;
  /** W3C trace context of the cause, passed through to the events. */
  readonly traceparent?: string | undefined;
}

function toNewEvent(input: AppendOrderEventsInput, event: OrderEvent, index: number): NewEvent {
  const { type, data, schemaVersion } = serializeEvent(event);
  return {
    id: orderEventId(input.causeId, index),
    type,
    data,
    metadata: {
      correlationId: input.orderId,
      causationId: input.causeId,
      schemaVersion,
      ...(input.traceparent === undefined ? {} : { traceparent: input.traceparent }),
    },
  };
}

/**
 * Appends decided events to the order's stream; nothing when there are none.
 * Throws WrongExpectedRevisionError when another writer got there first.
 *
 * @example
 * await appendOrderEvents(store, { orderId, events, expectedRevision: loaded.revision, causeId: recorded.id });
 */
export async function appendOrderEvents(
  store: EventStore,
  input: AppendOrderEventsInput,
): Promise<AppendResult | undefined> {
  if (input.events.length === 0) return undefined;
  const events = input.events.map((event, index) => toNewEvent(input, event, index));
  return store.appendToStream(orderStream(input.orderId), events, {
    expectedRevision: input.expectedRevision,
  });
}
