// Events of the inventory service, stream `inventory-<orderId>`, published
// through its outbox.
import { z } from 'zod';
import { defineEvent, type EventOf } from './message.js';
import { OrderId, OrderLine, Quantity, Sku, Timestamp } from './values.js';

export const InventoryReserved = defineEvent(
  'InventoryReserved',
  1,
  z.object({ orderId: OrderId, items: z.array(OrderLine).min(1), reservedAt: Timestamp }),
);

export const Shortage = z.object({
  sku: Sku,
  requested: Quantity,
  available: z.number().int().nonnegative(),
});

export const InventoryReservationRejected = defineEvent(
  'InventoryReservationRejected',
  1,
  z.object({ orderId: OrderId, shortages: z.array(Shortage).min(1), rejectedAt: Timestamp }),
);

/** `items` is what was released: empty when the cancellation came before anything was reserved. */
export const InventoryReleased = defineEvent(
  'InventoryReleased',
  1,
  z.object({ orderId: OrderId, items: z.array(OrderLine), releasedAt: Timestamp }),
);

export const inventoryEvents = [
  InventoryReserved,
  InventoryReservationRejected,
  InventoryReleased,
] as const;

export type InventoryEvent = EventOf<(typeof inventoryEvents)[number]>;
