// The unit of work of inventory-reservation-v1. It runs inside the transaction
// processOnce opened, the one that holds the message's marker: the stock, the
// reservation lines, the order's state and the outgoing event commit together
// with the marker, or none of them does.
import { inventoryStream, type InventoryEvent, type OrderLine } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import { terminalFailure } from '@effectively-once/idempotency';
import { enqueueEvents } from '@effectively-once/outbox';
import { outgoingEvent } from '@effectively-once/service-kit';
import type { Transaction } from 'kysely';
import { decideOrderTransition } from '../domain/inventory-order.decide.js';
import type { InventoryOrder, OrderFact } from '../domain/inventory-order.js';
import { decideReservation } from '../domain/reservation.decide.js';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import {
  insertInventoryOrder,
  insertReleasedIfAbsent,
  lockInventoryOrder,
  updateInventoryOrder,
} from '../adapters/postgres/inventory-order.repository.js';
import {
  deleteHeldLines,
  findHeldLines,
  insertReservations,
  markHeldLinesConsumed,
} from '../adapters/postgres/inventory-reservation.repository.js';
import { lockStock, moveStock } from '../adapters/postgres/inventory.repository.js';

/** What one order event did here; `nothing` for a duplicate or late event. */
export type InventoryEffect = 'reserved' | 'rejected' | 'released' | 'consumed' | 'nothing';

export interface OrderEventInput {
  readonly orderId: string;
  readonly fact: OrderFact;
  readonly cause: Pick<RecordedEvent, 'id' | 'metadata'>;
  readonly now: () => Date;
}

type Trx = Transaction<InventoryDatabase>;

/**
 * Reads the order's state (locking its row), lets the transition rule decide,
 * and applies the decision.
 */
export async function applyOrderEvent(trx: Trx, input: OrderEventInput): Promise<InventoryEffect> {
  const stored = await lockInventoryOrder(trx, input.orderId);
  const transition = decideOrderTransition(stored, input.fact);
  switch (transition.kind) {
    case 'reserve':
      return reserve(trx, input, transition.lines);
    case 'release':
      return release(trx, input);
    case 'mark-released':
      return markReleased(trx, input, stored);
    case 'consume':
      return consume(trx, input);
    case 'nothing':
      return 'nothing';
    case 'impossible':
      // No redelivery can make this sequence valid: park it for an operator.
      throw terminalFailure(`${transition.why} (order ${input.orderId}).`);
  }
}

async function reserve(trx: Trx, input: OrderEventInput, lines: readonly OrderLine[]) {
  const stock = await lockStock(
    trx,
    lines.map((line) => line.sku),
  );
  const decision = decideReservation({ orderId: input.orderId, lines, stock, now: input.now() });
  const reserved = decision.type === 'InventoryReserved';
  if (reserved) {
    await moveStock(trx, 'reserve', decision.data.items);
    await insertReservations(trx, { orderId: input.orderId, lines: decision.data.items });
  }
  await insertInventoryOrder(trx, {
    orderId: input.orderId,
    status: reserved ? 'reserved' : 'rejected',
    orderVersion: input.fact.version,
  });
  await emit(trx, input, decision);
  return reserved ? 'reserved' : 'rejected';
}

/** Nothing is held: record the order as released so a later placement reserves nothing. */
async function markReleased(
  trx: Trx,
  input: OrderEventInput,
  stored: InventoryOrder | undefined,
): Promise<InventoryEffect> {
  if (stored !== undefined) {
    await setStatus(trx, input, 'released');
  } else {
    const inserted = await insertReleasedIfAbsent(trx, {
      orderId: input.orderId,
      orderVersion: input.fact.version,
    });
    // A concurrent placement recorded the order first: decide again from its
    // row, which now exists, so this recursion happens at most once.
    if (!inserted) return applyOrderEvent(trx, input);
  }
  await emit(trx, input, releasedEvent(input, []));
  return 'released';
}

async function release(trx: Trx, input: OrderEventInput) {
  const held = await findHeldLines(trx, input.orderId);
  await lockStock(
    trx,
    held.map((line) => line.sku),
  );
  await moveStock(trx, 'release', held);
  await deleteHeldLines(trx, input.orderId);
  await setStatus(trx, input, 'released');
  await emit(trx, input, releasedEvent(input, held));
  return 'released' as const;
}

/** The goods left: reserved stock goes away for good; no event, nobody waits for one. */
async function consume(trx: Trx, input: OrderEventInput) {
  const held = await findHeldLines(trx, input.orderId);
  await lockStock(
    trx,
    held.map((line) => line.sku),
  );
  await moveStock(trx, 'consume', held);
  await markHeldLinesConsumed(trx, input.orderId);
  await setStatus(trx, input, 'consumed');
  return 'consumed' as const;
}

async function setStatus(trx: Trx, input: OrderEventInput, status: 'released' | 'consumed') {
  await updateInventoryOrder(trx, {
    orderId: input.orderId,
    status,
    orderVersion: input.fact.version,
  });
}

function releasedEvent(input: OrderEventInput, items: OrderLine[]): InventoryEvent {
  return {
    type: 'InventoryReleased',
    data: { orderId: input.orderId, items, releasedAt: input.now().toISOString() },
  };
}

async function emit(trx: Trx, input: OrderEventInput, event: InventoryEvent): Promise<void> {
  await enqueueEvents(trx, [
    outgoingEvent({
      streamName: inventoryStream(event.data.orderId),
      event,
      causedBy: input.cause,
    }),
  ]);
}
