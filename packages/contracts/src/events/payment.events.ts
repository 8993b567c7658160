// Events of the payment service, stream `payment-<orderId>`, published through
// its outbox. The provider's answer is modelled as an event, never as a return value.
import { z } from 'zod';
import { defineEvent, type EventOf } from './message.js';
import { AmountCents, OrderId, PaymentAttemptId, Timestamp } from './values.js';

/**
 * The payment attempt's id: deterministic, so every redelivery of the request
 * reuses the same attempt and the same provider idempotency key.
 */
export const paymentAttemptId = (orderId: string, attempt = 1): string =>
  `${orderId}:${String(attempt)}`;

const AuthorizationId = z.string().min(1).max(100);

export const PaymentAuthorized = defineEvent(
  'PaymentAuthorized',
  1,
  z.object({
    orderId: OrderId,
    paymentAttemptId: PaymentAttemptId,
    authorizationId: AuthorizationId,
    amountCents: AmountCents,
    authorizedAt: Timestamp,
  }),
);

export const PaymentDeclined = defineEvent(
  'PaymentDeclined',
  1,
  z.object({
    orderId: OrderId,
    paymentAttemptId: PaymentAttemptId,
    reason: z.string().min(1).max(200),
    declinedAt: Timestamp,
  }),
);

export const PaymentVoided = defineEvent(
  'PaymentVoided',
  1,
  z.object({
    orderId: OrderId,
    paymentAttemptId: PaymentAttemptId,
    authorizationId: AuthorizationId,
    voidedAt: Timestamp,
  }),
);

/** The authorization was captured when the order was confirmed: the money is taken. */
export const PaymentCaptured = defineEvent(
  'PaymentCaptured',
  1,
  z.object({
    orderId: OrderId,
    paymentAttemptId: PaymentAttemptId,
    authorizationId: AuthorizationId,
    amountCents: AmountCents,
    capturedAt: Timestamp,
  }),
);

/**
 * The cancellation found no money held: no attempt was started, the card was
 * declined, or the processor closed the attempt's key with nothing stored.
 */
export const PaymentNothingToVoid = defineEvent(
  'PaymentNothingToVoid',
  1,
  z.object({
    orderId: OrderId,
    paymentAttemptId: PaymentAttemptId.nullable(),
    reason: z.enum(['no_attempt', 'declined', 'key_closed']),
    settledAt: Timestamp,
  }),
);

/**
 * The processor stayed unavailable for the authorization's whole retry
 * budget; the payment service closed the attempt's key there and learnt that
 * nothing was authorized, so nothing is held and nothing ever will be.
 */
export const PaymentUnavailable = defineEvent(
  'PaymentUnavailable',
  1,
  z.object({
    orderId: OrderId,
    paymentAttemptId: PaymentAttemptId,
    reason: z.string().min(1).max(500),
    gaveUpAt: Timestamp,
  }),
);

export const paymentEvents = [
  PaymentAuthorized,
  PaymentDeclined,
  PaymentVoided,
  PaymentCaptured,
  PaymentNothingToVoid,
  PaymentUnavailable,
] as const;

export type PaymentEvent = EventOf<(typeof paymentEvents)[number]>;
