// Events and inputs of one order, for the specifications at every level.
// Each builder takes the order id, so every test can use ids of its own.
import {
  paymentAttemptId,
  type CancellationReason,
  type CancellationRequestReason,
  type OrderDeadlines,
  type OrderEvent,
  type ReleasedHoldings,
} from '@effectively-once/contracts';
import type { OrderSagaInput } from '../order-saga.decide.js';

export const CUSTOMER_EMAIL = 'ada@example.com';
export const ITEMS = [
  { sku: 'SKU-RED-MUG', quantity: 2 },
  { sku: 'SKU-TEA', quantity: 1 },
];
/** 3 units at 1 000 cents. */
export const AMOUNT_CENTS = 3_000;
export const PLACED_AT = new Date('2026-11-30T10:00:00.000Z');
export const LATER = new Date('2026-11-30T10:05:00.000Z');
/** The default durations (30 s, 2 min, 5 min) after PLACED_AT. */
export const DEADLINES: OrderDeadlines = {
  inventoryBy: '2026-11-30T10:00:30.000Z',
  paymentBy: '2026-11-30T10:02:00.000Z',
  completeBy: '2026-11-30T10:05:00.000Z',
};

type EventOfType<Type extends string, Union> = Extract<Union, { type: Type }>;

export const orderPlaced = (orderId: string): EventOfType<'OrderPlaced', OrderEvent> => ({
  type: 'OrderPlaced',
  data: {
    orderId,
    customerEmail: CUSTOMER_EMAIL,
    items: ITEMS,
    paymentToken: 'tok_approve',
    amountCents: AMOUNT_CENTS,
    placedAt: PLACED_AT.toISOString(),
    deadlines: DEADLINES,
  },
});

/** An OrderPlaced as stored before the saga had deadlines: read back with `deadlines: null`. */
export const orderPlacedWithoutDeadlines = (
  orderId: string,
): EventOfType<'OrderPlaced', OrderEvent> => {
  const placed = orderPlaced(orderId);
  return { ...placed, data: { ...placed.data, deadlines: null } };
};

export const paymentRequested = (orderId: string): OrderEvent => ({
  type: 'OrderPaymentRequested',
  data: {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    paymentToken: 'tok_approve',
    amountCents: AMOUNT_CENTS,
    requestedAt: LATER.toISOString(),
  },
});

export const orderConfirmed = (orderId: string): OrderEvent => ({
  type: 'OrderConfirmed',
  data: {
    orderId,
    customerEmail: CUSTOMER_EMAIL,
    authorizationId: 'auth-1',
    confirmedAt: LATER.toISOString(),
  },
});

export const cancellationRequested = (
  orderId: string,
  reason: CancellationRequestReason,
  requestedAt: Date = LATER,
): OrderEvent => ({
  type: 'OrderCancellationRequested',
  data: { orderId, reason, requestedAt: requestedAt.toISOString() },
});

/** `released` defaults to nothing given back (the out-of-stock ending). */
export const orderCancelled = (
  orderId: string,
  reason: CancellationReason,
  released: ReleasedHoldings = { items: [], paymentVoided: false },
): OrderEvent => ({
  type: 'OrderCancelled',
  data: {
    orderId,
    customerEmail: CUSTOMER_EMAIL,
    reason,
    released,
    cancelledAt: LATER.toISOString(),
  },
});

export const inventoryCompensated = (
  orderId: string,
  items: ReleasedHoldings['items'] = ITEMS,
): OrderEvent => ({
  type: 'OrderCompensated',
  data: {
    orderId,
    step: 'inventory',
    outcome: 'released',
    items,
    compensatedAt: LATER.toISOString(),
  },
});

export const paymentCompensated = (
  orderId: string,
  outcome: 'voided' | 'nothing_held',
): OrderEvent => ({
  type: 'OrderCompensated',
  data: { orderId, step: 'payment', outcome, items: [], compensatedAt: LATER.toISOString() },
});

export const inventoryReserved = (orderId: string): OrderSagaInput => ({
  type: 'InventoryReserved',
  data: { orderId, items: ITEMS, reservedAt: PLACED_AT.toISOString() },
});

export const inventoryRejected = (orderId: string): OrderSagaInput => ({
  type: 'InventoryReservationRejected',
  data: {
    orderId,
    shortages: [{ sku: 'SKU-RED-MUG', requested: 2, available: 1 }],
    rejectedAt: PLACED_AT.toISOString(),
  },
});

export const inventoryReleased = (orderId: string): OrderSagaInput => ({
  type: 'InventoryReleased',
  data: { orderId, items: ITEMS, releasedAt: PLACED_AT.toISOString() },
});

export const paymentAuthorized = (orderId: string): OrderSagaInput => ({
  type: 'PaymentAuthorized',
  data: {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    authorizationId: 'auth-1',
    amountCents: AMOUNT_CENTS,
    authorizedAt: PLACED_AT.toISOString(),
  },
});

export const paymentDeclined = (orderId: string): OrderSagaInput => ({
  type: 'PaymentDeclined',
  data: {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    reason: 'card_declined',
    declinedAt: PLACED_AT.toISOString(),
  },
});

export const paymentUnavailable = (orderId: string): OrderSagaInput => ({
  type: 'PaymentUnavailable',
  data: {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    reason: 'payment provider answered 503 for authorize:1 on every allowed delivery',
    gaveUpAt: PLACED_AT.toISOString(),
  },
});

export const paymentVoided = (orderId: string): OrderSagaInput => ({
  type: 'PaymentVoided',
  data: {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    authorizationId: 'auth-1',
    voidedAt: PLACED_AT.toISOString(),
  },
});

export const paymentNothingToVoid = (orderId: string): OrderSagaInput => ({
  type: 'PaymentNothingToVoid',
  data: {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    reason: 'declined',
    settledAt: PLACED_AT.toISOString(),
  },
});
