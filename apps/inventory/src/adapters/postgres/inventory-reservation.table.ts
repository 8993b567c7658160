import type { Insertable, Selectable } from 'kysely';

/**
 * One line of one order's reservation. The primary key (order_id, sku),
 * `inventory_reservation_pkey`, is the consumer's business key: the same
 * placement under a new message id cannot reserve a line twice. Released lines
 * are deleted; consumed lines stay, as the record of stock that left.
 */
export interface InventoryReservationTable {
  order_id: string;
  sku: string;
  quantity: number;
  status: 'reserved' | 'consumed';
}

export type InventoryReservation = Selectable<InventoryReservationTable>;
export type NewInventoryReservation = Insertable<InventoryReservationTable>;
