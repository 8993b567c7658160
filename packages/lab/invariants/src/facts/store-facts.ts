// The event store read once, indexed the ways the checks look things up: by
// message id (markers), by order (outcomes), the placements (demand,
// deadlines), the confirmations (captures) and the compensations recorded.
import {
  ContractViolationError,
  parseEvent,
  STREAM_PREFIX,
  type CompensationStep,
  type KnownEvent,
} from '@effectively-once/contracts';
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

/** The event parsed by its contract, or undefined when it breaks it (no consumer acted on it). */
function parsed(event: RecordedEvent): KnownEvent | undefined {
  try {
    return parseEvent({
      type: event.type,
      data: event.data,
      schemaVersion: event.metadata.schemaVersion,
    });
  } catch (error) {
    if (error instanceof ContractViolationError) return undefined;
    throw error;
  }
}

/** The order events whose data the checks read; the rest are judged by type alone. */
const ORDER_FACTS: ReadonlySet<string> = new Set([
  'OrderPlaced',
  'OrderConfirmed',
  'OrderCompensated',
]);

interface OrderStreamFacts {
  readonly placements: Placement[];
  readonly confirmedWith: Map<string, string>;
  readonly compensated: Map<string, Set<CompensationStep>>;
}

/** What the checks need from the order stream's own facts, added to `facts` as they are met. */
function noteOrderEvent(event: RecordedEvent, facts: OrderStreamFacts): void {
  if (!ORDER_FACTS.has(event.type)) return;
  const known = parsed(event);
  if (known?.type === 'OrderPlaced') {
    const { orderId, items, deadlines } = known.data;
    const completeBy = deadlines === null ? null : new Date(deadlines.completeBy);
    facts.placements.push({
      messageId: event.id,
      orderId,
      items,
      completeBy,
      createdAt: event.createdAt,
    });
  } else if (known?.type === 'OrderConfirmed') {
    facts.confirmedWith.set(known.data.orderId, known.data.authorizationId);
  } else if (known?.type === 'OrderCompensated') {
    const steps = facts.compensated.get(known.data.orderId) ?? new Set<CompensationStep>();
    facts.compensated.set(known.data.orderId, steps.add(known.data.step));
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
  const facts: OrderStreamFacts = {
    placements: [],
    confirmedWith: new Map(),
    compensated: new Map(),
  };
  const streams = new Map<string, Entry[]>();
  for (const event of events) {
    const orderId = orderIdOf(event);
    const { id, type, streamName, createdAt, revision } = event;
    messages.set(id, { id, type, streamName, orderId, createdAt });
    if (!streamName.startsWith(STREAM_PREFIX.order) || orderId === undefined) continue;
    const entries = streams.get(orderId) ?? [];
    entries.push({ id, type, createdAt, revision });
    streams.set(orderId, entries);
    noteOrderEvent(event, facts);
  }
  return { messages, ...facts, orders: historiesOf(streams) };
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
