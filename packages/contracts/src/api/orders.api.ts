// The public order API's bodies. Stable: people script against them (docs/api.md).
import { z } from 'zod';
import { CancellationReason, OrderDeadlines } from '../events/order.events.js';
import {
  AmountCents,
  Email,
  OrderId,
  OrderLines,
  PaymentToken,
  Timestamp,
} from '../events/values.js';

export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const PlaceOrderRequest = z
  .object({
    customerEmail: Email,
    items: OrderLines,
    /**
     * Any non-empty string passes the schema; one that is not in the card
     * processor's token format (PaymentTokenFormat) is refused with 422
     * PAYMENT_TOKEN_MALFORMED before anything starts.
     */
    paymentToken: PaymentToken,
  })
  .strict()
  .meta({ id: 'PlaceOrderRequest' });
export type PlaceOrderRequest = z.infer<typeof PlaceOrderRequest>;

/** `confirmed` and `cancelled` are terminal. */
export const OrderStatus = z.enum([
  'awaiting_inventory',
  'awaiting_payment',
  'confirmed',
  'cancelling',
  'cancelled',
]);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const TimelineEntry = z.object({
  eventId: z.uuid(),
  type: z.string(),
  /** The order stream's revision after this event (0 for OrderPlaced). */
  version: z.number().int().nonnegative(),
  occurredAt: Timestamp,
});

export const OrderResource = z
  .object({
    orderId: OrderId,
    status: OrderStatus,
    /** The aggregate version: the revision of the order stream's last event. */
    version: z.number().int().nonnegative(),
    customerEmail: Email,
    items: OrderLines,
    amountCents: AmountCents,
    cancellationReason: CancellationReason.nullable(),
    placedAt: Timestamp,
    /** When each step must have happened, or the order is cancelled (`timed_out`); null for orders placed before deadlines existed. */
    deadlines: OrderDeadlines.nullable(),
    timeline: z.array(TimelineEntry),
    /**
     * The W3C trace-id of the trace the order was placed in: look it up in
     * the trace backend (docs/observability.md#traces). Null when the order
     * was placed without trace context (tracing off); absent from answers
     * stored before it existed, read as null.
     */
    traceId: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .nullable()
      .default(null),
  })
  .meta({ id: 'Order' });
export type OrderResource = z.infer<typeof OrderResource>;

export const OrderSummary = z.object({
  orderId: OrderId,
  status: OrderStatus,
  version: z.number().int().nonnegative(),
  placedAt: Timestamp,
});

export const ListOrdersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
});

export const OrderList = z
  .object({ orders: z.array(OrderSummary), nextCursor: z.string().nullable() })
  .meta({ id: 'OrderList' });
export type OrderList = z.infer<typeof OrderList>;

export const OrderIdParams = z.object({ orderId: OrderId });
