// All or nothing: an order's lines are reserved together or not at all, so a
// half-reserved order never holds stock that another order could have used.
import type {
  EventOf,
  InventoryReservationRejected,
  InventoryReserved,
  OrderLine,
} from '@effectively-once/contracts';

/** What one SKU has on hand, as read under its row lock. */
export interface StockOnHand {
  readonly sku: string;
  readonly available: number;
}

export interface ReserveStock {
  readonly orderId: string;
  readonly lines: readonly OrderLine[];
  /** The ordered SKUs' stock. A SKU missing here is unknown: it has 0 available. */
  readonly stock: readonly StockOnHand[];
  readonly now: Date;
}

export type ReservationDecision =
  EventOf<typeof InventoryReserved> | EventOf<typeof InventoryReservationRejected>;

/**
 * Reserves every line, or rejects the order naming each line that is short.
 * Running out of stock is a business answer (an event), not an error.
 *
 * @example
 * decideReservation({ orderId, lines: [{ sku: 'MUG', quantity: 2 }], stock: [{ sku: 'MUG', available: 5 }], now })
 * // { type: 'InventoryReserved', data: { orderId, items: [{ sku: 'MUG', quantity: 2 }], reservedAt } }
 */
export function decideReservation(command: ReserveStock): ReservationDecision {
  const available = new Map(command.stock.map((level) => [level.sku, level.available]));
  const shortages = command.lines
    .map((line) => ({
      sku: line.sku,
      requested: line.quantity,
      available: available.get(line.sku) ?? 0,
    }))
    .filter((line) => line.requested > line.available);
  if (shortages.length > 0) {
    return {
      type: 'InventoryReservationRejected',
      data: { orderId: command.orderId, shortages, rejectedAt: command.now.toISOString() },
    };
  }
  return {
    type: 'InventoryReserved',
    data: {
      orderId: command.orderId,
      items: command.lines.map(({ sku, quantity }) => ({ sku, quantity })),
      reservedAt: command.now.toISOString(),
    },
  };
}
