// What the inventory service remembers of one order, and the order events that
// can change it. A version is the event's revision in the order's stream.
import type { OrderLine } from '@effectively-once/contracts';

export type InventoryOrderStatus = 'reserved' | 'rejected' | 'released' | 'consumed';

export interface InventoryOrder {
  readonly status: InventoryOrderStatus;
  /** Revision, in the order stream, of the last order event that changed this row. */
  readonly orderVersion: number;
}

/** An order event this service acts on, reduced to what the transition rule needs. */
export type OrderFact =
  | { readonly type: 'OrderPlaced'; readonly version: number; readonly lines: readonly OrderLine[] }
  | { readonly type: 'OrderCancellationRequested'; readonly version: number }
  | { readonly type: 'OrderConfirmed'; readonly version: number };
