// inventory-reservation-v1: reads the order streams and keeps each order's
// stock. Every event it acts on goes through processOnce, so a redelivery is
// a duplicate by marker; the transition rule (by the order's version) and the
// business keys stop the same fact under another message id.
import {
  CONSUMERS,
  isEventOf,
  type EventOfTypes,
  type KnownEvent,
  type KnownEventType,
} from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  type OutcomeListener,
  type ProcessResult,
} from '@effectively-once/idempotency';
import type { Kysely } from 'kysely';
import type { OrderFact } from '../domain/inventory-order.js';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { applyOrderEvent, type InventoryEffect } from './apply-order-event.js';

export const inventoryReservation = defineConsumer({
  name: CONSUMERS.inventoryReservation,
  // A violation of either means another delivery already decided this order.
  businessKeys: ['inventory_reservation_pkey', 'inventory_order_pkey'],
});

/** The events this consumer acts on: its subscription group receives only these. */
export const INVENTORY_RESERVATION_EVENTS = [
  'OrderPlaced',
  'OrderCancellationRequested',
  'OrderConfirmed',
] as const satisfies readonly KnownEventType[];

export interface InventoryConsumerDeps {
  readonly db: Kysely<InventoryDatabase>;
  readonly now: () => Date;
  readonly onOutcome?: OutcomeListener;
}

export type OrderEventResult = ProcessResult<InventoryEffect> | { outcome: 'ignored' };

/**
 * Handles one parsed event of an order stream. An event outside
 * INVENTORY_RESERVATION_EVENTS (the subscription's filter keeps them away; a
 * replay may not) is acknowledged as `ignored`, without a transaction.
 *
 * @example
 * const result = await handleOrderEvent({ db, now: () => new Date() }, parseEvent(recorded), recorded);
 */
export async function handleOrderEvent(
  deps: InventoryConsumerDeps,
  event: KnownEvent,
  recorded: RecordedEvent,
): Promise<OrderEventResult> {
  if (!isEventOf(INVENTORY_RESERVATION_EVENTS, event)) return { outcome: 'ignored' };
  const fact = orderFactOf(event, recorded);
  return processOnce({
    db: deps.db,
    consumer: inventoryReservation,
    message: { id: recorded.id, type: recorded.type },
    work: (trx) =>
      applyOrderEvent(trx, { orderId: fact.orderId, fact, cause: recorded, now: deps.now }),
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
}

/** The order's version is the event's revision in its stream. */
function orderFactOf(
  event: EventOfTypes<typeof INVENTORY_RESERVATION_EVENTS>,
  recorded: RecordedEvent,
): OrderFact & { orderId: string } {
  const version = Number(recorded.revision);
  switch (event.type) {
    case 'OrderPlaced':
      return { type: event.type, orderId: event.data.orderId, version, lines: event.data.items };
    case 'OrderCancellationRequested':
    case 'OrderConfirmed':
      return { type: event.type, orderId: event.data.orderId, version };
  }
}
