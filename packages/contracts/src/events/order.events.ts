// Events of the Order aggregate, stream `order-<orderId>`. Written by the
// order service straight to the event store: the append is the business change.
import { z } from 'zod';
import { defineEvent, type EventOf } from './message.js';
import {
  AmountCents,
  Email,
  OrderId,
  OrderLines,
  PaymentAttemptId,
  PaymentToken,
  Timestamp,
} from './values.js';

export const CancellationRequestReason = z.enum(['payment_declined', 'customer_request']);
export type CancellationRequestReason = z.infer<typeof CancellationRequestReason>;
export const CancellationReason = z.enum(['out_of_stock', 'payment_declined', 'customer_request']);
export type CancellationReason = z.infer<typeof CancellationReason>;

export const OrderPlaced = defineEvent(
  'OrderPlaced',
  1,
  z.object({
    orderId: OrderId,
    customerEmail: Email,
    items: OrderLines,
    paymentToken: PaymentToken,
    amountCents: AmountCents,
    placedAt: Timestamp,
  }),
);

export const OrderPaymentRequested = defineEvent(
  'OrderPaymentRequested',
  1,
  z.object({
    orderId: OrderId,
    paymentAttemptId: PaymentAttemptId,
    paymentToken: PaymentToken,
    amountCents: AmountCents,
    requestedAt: Timestamp,
  }),
);

export const OrderConfirmed = defineEvent(
  'OrderConfirmed',
  1,
  z.object({
    orderId: OrderId,
    customerEmail: Email,
    authorizationId: z.string().min(1).max(100),
    confirmedAt: Timestamp,
  }),
);

export const OrderCancellationRequested = defineEvent(
  'OrderCancellationRequested',
  1,
  z.object({ orderId: OrderId, reason: CancellationRequestReason, requestedAt: Timestamp }),
);

export const OrderCancelled = defineEvent(
  'OrderCancelled',
  1,
  z.object({
    orderId: OrderId,
    customerEmail: Email,
    reason: CancellationReason,
    cancelledAt: Timestamp,
  }),
);

export const orderEvents = [
  OrderPlaced,
  OrderPaymentRequested,
  OrderConfirmed,
  OrderCancellationRequested,
  OrderCancelled,
] as const;

export type OrderEvent = EventOf<(typeof orderEvents)[number]>;
