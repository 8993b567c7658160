// One valid payload per event type of the contracts, for the tests the
// scaffolder writes: a generated test delivers this event. `orderId` is left
// out; each test sets its own. The scaffolder parses the sample with the
// repository's contracts before it writes anything, and a unit test parses
// every sample, so a new event type or a changed schema fails there first.

export type Sample = Readonly<Record<string, unknown>>;

const at = '2026-12-01T10:00:00.000Z';
const attempt = '00000000-0000-4000-8000-000000000001:1';
const items = [{ sku: 'SKU-MUG', quantity: 2 }];

export const EVENT_SAMPLES: Readonly<Record<string, Sample>> = {
  OrderPlaced: {
    customerEmail: 'ada@example.com',
    items,
    paymentToken: 'tok_visa',
    amountCents: 2400,
    placedAt: at,
    deadlines: null,
  },
  OrderPaymentRequested: {
    paymentAttemptId: attempt,
    paymentToken: 'tok_visa',
    amountCents: 2400,
    requestedAt: at,
  },
  OrderConfirmed: {
    customerEmail: 'ada@example.com',
    authorizationId: 'auth-1',
    confirmedAt: at,
  },
  OrderCancellationRequested: { reason: 'customer_request', requestedAt: at },
  OrderCompensated: { step: 'inventory', outcome: 'released', items, compensatedAt: at },
  OrderCancelled: {
    customerEmail: 'ada@example.com',
    reason: 'customer_request',
    released: { items, paymentVoided: false },
    cancelledAt: at,
  },
  InventoryReserved: { items, reservedAt: at },
  InventoryReservationRejected: {
    shortages: [{ sku: 'SKU-MUG', requested: 2, available: 0 }],
    rejectedAt: at,
  },
  InventoryReleased: { items, releasedAt: at },
  PaymentAuthorized: {
    paymentAttemptId: attempt,
    authorizationId: 'auth-1',
    amountCents: 2400,
    authorizedAt: at,
  },
  PaymentDeclined: { paymentAttemptId: attempt, reason: 'card_declined', declinedAt: at },
  PaymentVoided: { paymentAttemptId: attempt, authorizationId: 'auth-1', voidedAt: at },
  PaymentCaptured: {
    paymentAttemptId: attempt,
    authorizationId: 'auth-1',
    amountCents: 2400,
    capturedAt: at,
  },
  PaymentNothingToVoid: { paymentAttemptId: null, reason: 'no_attempt', settledAt: at },
  PaymentUnavailable: { paymentAttemptId: attempt, reason: 'processor down', gaveUpAt: at },
  CustomerNotified: { kind: 'order_confirmed', emailMessageId: '<1@mail>', sentAt: at },
};

/** The sample of `type` with the given order id, or undefined when there is none. */
export function sampleOf(type: string, orderId: string): Sample | undefined {
  const sample = Object.hasOwn(EVENT_SAMPLES, type) ? EVENT_SAMPLES[type] : undefined;
  return sample === undefined ? undefined : { orderId, ...sample };
}
