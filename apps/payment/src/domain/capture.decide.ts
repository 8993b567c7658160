// What the payment service does with an OrderConfirmed: capture the
// authorization the order was confirmed with, before the provider call (from
// the recorded attempt) and after it. Pure: the handler does the I/O.
import type { PaymentEvent } from '@effectively-once/contracts';
import { captureAttempt, type AuthorizedAttempt, type PaymentAttempt } from './payment-attempt.js';

export type ConfirmationDecision =
  /** Ask the provider to capture, with the attempt's capture key. */
  | { readonly kind: 'capture'; readonly attempt: AuthorizedAttempt }
  /** An earlier delivery captured and told the saga: nothing to do. */
  | { readonly kind: 'already_captured' }
  /** The order was confirmed without an authorization recorded here: a bug, no retry fixes it. */
  | { readonly kind: 'reject'; readonly reason: string };

/**
 * @example
 * const decision = decideOnConfirmation({ orderId, attempt });
 * if (decision.kind === 'capture') await provider.capture(decision.attempt);
 */
export function decideOnConfirmation(input: {
  orderId: string;
  attempt: PaymentAttempt | undefined;
}): ConfirmationDecision {
  const { orderId, attempt } = input;
  if (attempt === undefined) {
    return { kind: 'reject', reason: `order ${orderId} was confirmed with no payment attempt` };
  }
  switch (attempt.status) {
    case 'authorized':
      return { kind: 'capture', attempt };
    case 'captured':
      return { kind: 'already_captured' };
    case 'pending':
    case 'declined':
    case 'voided':
    case 'abandoned':
      return {
        kind: 'reject',
        reason: `order ${orderId} was confirmed while its payment attempt ${attempt.attemptId} is ${attempt.status}`,
      };
  }
}

export type CapturedDecision =
  | {
      readonly kind: 'record';
      readonly attempt: PaymentAttempt;
      readonly event: Extract<PaymentEvent, { type: 'PaymentCaptured' }>;
    }
  /** Another delivery of the confirmation recorded the capture (and its event) first. */
  | { readonly kind: 'already_recorded' };

/**
 * After the provider confirmed the capture: the attempt becomes captured and
 * PaymentCaptured records that the money is taken.
 *
 * @example
 * const decision = decideOnCaptured({ attempt, now: new Date() });
 */
export function decideOnCaptured(input: { attempt: PaymentAttempt; now: Date }): CapturedDecision {
  const { attempt, now } = input;
  if (attempt.status === 'captured') return { kind: 'already_recorded' };
  const captured = captureAttempt(attempt);
  return {
    kind: 'record',
    attempt: captured,
    event: {
      type: 'PaymentCaptured',
      data: {
        orderId: attempt.orderId,
        paymentAttemptId: attempt.attemptId,
        authorizationId: captured.authorizationId,
        amountCents: attempt.amountCents,
        capturedAt: now.toISOString(),
      },
    },
  };
}
