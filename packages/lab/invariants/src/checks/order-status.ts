// Where an order stands, read from the types of its stream's events alone:
// the checks that judge orders by their outcome share this one reading.
import type { OrderHistory } from '../facts/facts.types.js';

export type OrderStatus =
  'awaiting_inventory' | 'awaiting_payment' | 'cancelling' | 'confirmed' | 'cancelled';

type OrderEventEntry = OrderHistory['events'][number];

/** The first event of this type in the order's stream. */
export function eventOf(history: OrderHistory, type: string): OrderEventEntry | undefined {
  return history.events.find((event) => event.type === type);
}

/**
 * An outcome wins over everything before it; a cancellation requested and
 * not yet finished is `cancelling`.
 *
 * @example
 * statusOf(history(orderId, ['OrderPlaced', 'OrderPaymentRequested'])) // 'awaiting_payment'
 */
export function statusOf(history: OrderHistory): OrderStatus {
  const has = (type: string) => eventOf(history, type) !== undefined;
  if (has('OrderCancelled')) return 'cancelled';
  if (has('OrderConfirmed')) return 'confirmed';
  if (has('OrderCancellationRequested')) return 'cancelling';
  if (has('OrderPaymentRequested')) return 'awaiting_payment';
  return 'awaiting_inventory';
}

/** The orders the scope names that have a stream, or every order stream. */
export function scopedHistories(
  orders: ReadonlyMap<string, OrderHistory>,
  orderIds: ReadonlySet<string> | undefined,
): OrderHistory[] {
  const ids = orderIds ?? orders.keys();
  return [...ids].flatMap((orderId) => {
    const history = orders.get(orderId);
    return history === undefined ? [] : [history];
  });
}
