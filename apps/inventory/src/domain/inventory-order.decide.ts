// The transition rule of one order's stock, by the order's aggregate version.
// Events of one order can arrive in any order and more than once (a
// redelivery, a replay, the same fact under a new message id); this rule makes
// each of them change the stock at most once, and never after a release.
import type { OrderLine } from '@effectively-once/contracts';
import type { InventoryOrder, OrderFact } from './inventory-order.js';

export type OrderTransition =
  /** Nothing is known of the order yet: try to reserve all its lines. */
  | { readonly kind: 'reserve'; readonly lines: readonly OrderLine[] }
  /** Give the reserved stock back; InventoryReleased names what was held. */
  | { readonly kind: 'release' }
  /**
   * Nothing is held: record the order as released, so that a placement
   * arriving later reserves nothing; InventoryReleased with no items.
   */
  | { readonly kind: 'mark-released' }
  /** The goods leave the warehouse: the reservation becomes consumed. */
  | { readonly kind: 'consume' }
  | { readonly kind: 'nothing'; readonly why: NothingReason }
  /** A sequence the order aggregate cannot produce: a bug or lost data, for an operator. */
  | { readonly kind: 'impossible'; readonly why: string };

export type NothingReason =
  /** The event is not newer than the last one applied: a duplicate or a late arrival. */
  | 'already-applied'
  /** The order was reserved, rejected or released before: a placement changes nothing. */
  | 'already-decided'
  | 'already-released';

/**
 * Decides what an order event does to the order's stock, given what is stored.
 *
 * | stored \ event      | OrderPlaced     | OrderCancellationRequested | OrderConfirmed |
 * | ------------------- | --------------- | -------------------------- | -------------- |
 * | none                | reserve         | mark-released              | impossible     |
 * | version >= event's  | nothing         | nothing                    | nothing        |
 * | reserved            | nothing         | release                    | consume        |
 * | rejected            | nothing         | mark-released              | impossible     |
 * | released            | nothing         | nothing                    | impossible     |
 * | consumed            | nothing         | impossible                 | impossible     |
 *
 * @example
 * decideOrderTransition({ status: 'released', orderVersion: 1 }, { type: 'OrderPlaced', version: 0 })
 * // { kind: 'nothing', why: 'already-applied' }
 */
export function decideOrderTransition(
  stored: InventoryOrder | undefined,
  event: OrderFact,
): OrderTransition {
  if (stored === undefined) return firstEventOfOrder(event);
  if (event.version <= stored.orderVersion) return { kind: 'nothing', why: 'already-applied' };
  switch (event.type) {
    case 'OrderPlaced':
      return { kind: 'nothing', why: 'already-decided' };
    case 'OrderCancellationRequested':
      return cancellation(stored);
    case 'OrderConfirmed':
      return stored.status === 'reserved'
        ? { kind: 'consume' }
        : impossible(`OrderConfirmed for an order whose stock is ${stored.status}`);
  }
}

function firstEventOfOrder(event: OrderFact): OrderTransition {
  switch (event.type) {
    case 'OrderPlaced':
      return { kind: 'reserve', lines: event.lines };
    case 'OrderCancellationRequested':
      // Cancelled before the placement was processed: the placement may still come.
      return { kind: 'mark-released' };
    case 'OrderConfirmed':
      // A confirmation needs InventoryReserved, which only this service emits.
      return impossible('OrderConfirmed for an order this service never reserved');
  }
}

function cancellation(stored: InventoryOrder): OrderTransition {
  switch (stored.status) {
    case 'reserved':
      return { kind: 'release' };
    case 'rejected':
      // The order saga waits for InventoryReleased to finish any cancellation.
      return { kind: 'mark-released' };
    case 'released':
      return { kind: 'nothing', why: 'already-released' };
    case 'consumed':
      return impossible('OrderCancellationRequested for an order whose stock was consumed');
  }
}

function impossible(why: string): OrderTransition {
  return { kind: 'impossible', why };
}
