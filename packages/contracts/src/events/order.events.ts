// Events of the Order aggregate, stream `order-<orderId>`. Written by the
// order service straight to the event store: the append is the business change.
import { z } from 'zod';
import { defineEvent, type EventOf } from './message.js';
import {
  AmountCents,
  Email,
  OrderId,
  OrderLine,
  OrderLines,
  PaymentAttemptId,
  PaymentToken,
  Timestamp,
} from './values.js';

/**
 * Why a cancellation was asked for: a declined card, the customer, a deadline
 * of the saga that passed (`timed_out`), or a card processor that stayed
 * unavailable past the authorization's retry budget (`payment_unavailable`).
 */
export const CancellationRequestReason = z.enum([
  'payment_declined',
  'customer_request',
  'timed_out',
  'payment_unavailable',
]);
export type CancellationRequestReason = z.infer<typeof CancellationRequestReason>;
export const CancellationReason = z.enum([
  'out_of_stock',
  'payment_declined',
  'customer_request',
  'timed_out',
  'payment_unavailable',
]);
export type CancellationReason = z.infer<typeof CancellationReason>;

/** The two compensations a cancellation waits for. */
export const CompensationStep = z.enum(['inventory', 'payment']);
export type CompensationStep = z.infer<typeof CompensationStep>;

/**
 * What a compensation found: stock `released` (possibly no units, when the
 * cancellation came before the reservation), an authorization `voided`, or
 * `nothing_held` on the card (no attempt, a decline, or a key the processor
 * closed with nothing stored under it).
 */
export const CompensationOutcome = z.enum(['released', 'voided', 'nothing_held']);
export type CompensationOutcome = z.infer<typeof CompensationOutcome>;

/** What a cancelled order gave back, so the email can say it. */
export const ReleasedHoldings = z.object({
  /** The units released; empty when none were reserved. */
  items: z.array(OrderLine),
  /** True when a card authorization was voided; false when none was held. */
  paymentVoided: z.boolean(),
});
export type ReleasedHoldings = z.infer<typeof ReleasedHoldings>;

/**
 * When each step of the saga must have happened, fixed at placement: past
 * `inventoryBy` with the stock not reserved, past `paymentBy` with the card
 * not authorized, or past `completeBy` with the order neither confirmed nor
 * cancelling, the order service's timer cancels the order (`timed_out`).
 */
export const OrderDeadlines = z.object({
  inventoryBy: Timestamp,
  paymentBy: Timestamp,
  completeBy: Timestamp,
});
export type OrderDeadlines = z.infer<typeof OrderDeadlines>;

/** The deadline a timer stands for. */
export const OrderDeadlineName = z.enum(['inventory', 'payment', 'complete']);
export type OrderDeadlineName = z.infer<typeof OrderDeadlineName>;

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
    /** Null on orders placed before the saga had deadlines: no timer guards them. */
    deadlines: OrderDeadlines.nullable().default(null),
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

/**
 * One compensation of a cancelling order is done. The saga records each as a
 * fact of the order, so OrderCancelled can wait for both, whatever order they
 * arrive in, and a redelivery of either finds it recorded.
 */
export const OrderCompensated = defineEvent(
  'OrderCompensated',
  1,
  z.object({
    orderId: OrderId,
    step: CompensationStep,
    outcome: CompensationOutcome,
    /** The units released by the inventory step; empty for the payment step. */
    items: z.array(OrderLine),
    compensatedAt: Timestamp,
  }),
);

/**
 * Terminal: nothing is held for the order any more. `released` is null on
 * events written before cancellations waited for their compensations, and
 * for an order that never held anything (out of stock).
 */
export const OrderCancelled = defineEvent(
  'OrderCancelled',
  1,
  z.object({
    orderId: OrderId,
    customerEmail: Email,
    reason: CancellationReason,
    released: ReleasedHoldings.nullable().default(null),
    cancelledAt: Timestamp,
  }),
);

export const orderEvents = [
  OrderPlaced,
  OrderPaymentRequested,
  OrderConfirmed,
  OrderCancellationRequested,
  OrderCompensated,
  OrderCancelled,
] as const;

export type OrderEvent = EventOf<(typeof orderEvents)[number]>;
