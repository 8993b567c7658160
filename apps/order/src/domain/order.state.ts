// The Order aggregate's state, rebuilt from its stream by `evolve`. Each
// status carries only what is known in it, so `decide` cannot read an
// authorization id of an order that was never confirmed.
import type {
  CancellationReason,
  CancellationRequestReason,
  OrderDeadlines,
  OrderEvent,
  OrderLine,
} from '@effectively-once/contracts';

/**
 * The compensations a cancellation waits for, as far as they are known:
 * `undefined` while a step is still running.
 */
export interface CompensationProgress {
  /** The units the inventory service released (possibly none). */
  readonly inventory: { readonly items: readonly OrderLine[] } | undefined;
  /** Whether an authorization was voided, or none was held. */
  readonly payment: 'voided' | 'nothing_held' | undefined;
}

/** The event types of the order stream, by name. */
export type OrderEventOf<Type extends OrderEvent['type']> = Extract<OrderEvent, { type: Type }>;

/** What OrderPlaced fixed for the life of the order. */
export interface OrderDetails {
  readonly orderId: string;
  readonly customerEmail: string;
  readonly items: readonly OrderLine[];
  readonly paymentToken: string;
  readonly amountCents: number;
  readonly placedAt: string;
  /** When each step must have happened; null for orders placed before the saga had deadlines. */
  readonly deadlines: OrderDeadlines | null;
}

export type Order =
  | (OrderDetails & { readonly status: 'awaiting_inventory' })
  | (OrderDetails & { readonly status: 'awaiting_payment'; readonly paymentAttemptId: string })
  | (OrderDetails & { readonly status: 'confirmed'; readonly authorizationId: string })
  | (OrderDetails & {
      readonly status: 'cancelling';
      readonly cancellationReason: CancellationRequestReason;
      readonly compensations: CompensationProgress;
    })
  | (OrderDetails & {
      readonly status: 'cancelled';
      readonly cancellationReason: CancellationReason;
    });

/** Before OrderPlaced: the stream is empty. */
export interface NotPlacedOrder {
  readonly status: 'not_placed';
}

export type OrderState = NotPlacedOrder | Order;

export const initialOrderState = (): OrderState => ({ status: 'not_placed' });

/** The placement details of an order in any status. */
export function detailsOf(order: Order): OrderDetails {
  const { orderId, customerEmail, items, paymentToken, amountCents, placedAt, deadlines } = order;
  return { orderId, customerEmail, items, paymentToken, amountCents, placedAt, deadlines };
}
