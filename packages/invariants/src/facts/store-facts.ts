// The event store read once, indexed the ways the checks look things up: by
// message id (markers), by order (outcomes) and the placements (demand).
import { ContractViolationError, parseEvent, STREAM_PREFIX } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import type { OrderHistory, Placement, StoreFacts, StoredMessage } from './facts.types.js';

function orderIdOf(event: RecordedEvent): string | undefined {
  if (event.streamName.startsWith(STREAM_PREFIX.order)) {
    return event.streamName.slice(STREAM_PREFIX.order.length);
  }
  if (event.metadata.correlationId !== undefined) return event.metadata.correlationId;
  const data = event.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const orderId = data['orderId'];
    if (typeof orderId === 'string') return orderId;
  }
  return undefined;
}

/** The OrderPlaced's lines, or undefined for an event that breaks its contract (nothing counted it). */
function placementOf(event: RecordedEvent): Placement | undefined {
  try {
    const parsed = parseEvent({
      type: event.type,
      data: event.data,
      schemaVersion: event.metadata.schemaVersion,
    });
    if (parsed.type !== 'OrderPlaced') return undefined;
    return {
      messageId: event.id,
      orderId: parsed.data.orderId,
      items: parsed.data.items,
      createdAt: event.createdAt,
    };
  } catch (error) {
    if (error instanceof ContractViolationError) return undefined;
    throw error;
  }
}

interface Entry {
  readonly id: string;
  readonly type: string;
  readonly createdAt: Date;
  readonly revision: bigint;
}

/**
 * @example
 * const store = storeFactsOf(await readEveryEvent(eventStore));
 * store.orders.get(orderId)?.events.at(-1)?.type // 'OrderConfirmed'
 */
export function storeFactsOf(events: readonly RecordedEvent[]): StoreFacts {
  const messages = new Map<string, StoredMessage>();
  const placements: Placement[] = [];
  const streams = new Map<string, Entry[]>();
  for (const event of events) {
    const orderId = orderIdOf(event);
    const { id, type, streamName, createdAt, revision } = event;
    messages.set(id, { id, type, streamName, orderId, createdAt });
    if (!streamName.startsWith(STREAM_PREFIX.order) || orderId === undefined) continue;
    const entries = streams.get(orderId) ?? [];
    entries.push({ id, type, createdAt, revision });
    streams.set(orderId, entries);
    if (type === 'OrderPlaced') {
      const placement = placementOf(event);
      if (placement !== undefined) placements.push(placement);
    }
  }
  return { messages, placements, orders: historiesOf(streams) };
}

/**
 * A stream's own order is its revisions. The global order is the commit
 * order, which can differ for two appends whose transactions began in the
 * other order.
 */
function historiesOf(streams: ReadonlyMap<string, Entry[]>): ReadonlyMap<string, OrderHistory> {
  const histories = new Map<string, OrderHistory>();
  for (const [orderId, entries] of streams) {
    const events = [...entries]
      .sort((a, b) => (a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0))
      .map(({ id, type, createdAt }) => ({ id, type, createdAt }));
    histories.set(orderId, { orderId, events });
  }
  return histories;
}
