// What the payment service does with an OrderCancellationRequested: before the
// provider's void (from the recorded attempt) and after it. Pure.
import type { PaymentEvent } from '@effectively-once/contracts';
import {
  voidAttempt,
  type AuthorizedAttempt,
  type PaymentAttempt,
  type PendingAttempt,
} from './payment-attempt.js';

export type CancellationDecision =
  /** No attempt, a decline or a closed key: no money is held; PaymentNothingToVoid says so. */
  | { readonly kind: 'nothing'; readonly reason: 'no_attempt' | 'declined' | 'key_closed' }
  /** Voided by an earlier delivery, which also told the saga: nothing left to do or say. */
  | { readonly kind: 'already_voided' }
  /**
   * The attempt reached the provider or may have: only the provider knows
   * whether money is held. The cancellation closes the attempt's key there:
   * the answer stored under it comes back (an authorization to void, or a
   * decline), or, with nothing stored, the key is closed so that nothing can
   * ever be authorized under it. It records that, and decides again.
   */
  | { readonly kind: 'settle'; readonly attempt: PendingAttempt }
  | { readonly kind: 'void'; readonly attempt: AuthorizedAttempt }
  /** A captured payment cannot be voided: a confirmed order is never cancelled. A bug upstream. */
  | { readonly kind: 'reject'; readonly reason: string };

/**
 * @example
 * const decision = decideOnCancellation({ attempt });
 * if (decision.kind === 'void') await provider.voidAuthorization(decision.attempt);
 */
export function decideOnCancellation(input: {
  attempt: PaymentAttempt | undefined;
}): CancellationDecision {
  const { attempt } = input;
  if (attempt === undefined) return { kind: 'nothing', reason: 'no_attempt' };
  switch (attempt.status) {
    case 'declined':
      return { kind: 'nothing', reason: 'declined' };
    case 'abandoned':
      return { kind: 'nothing', reason: 'key_closed' };
    case 'voided':
      return { kind: 'already_voided' };
    case 'pending':
      return { kind: 'settle', attempt };
    case 'authorized':
      return { kind: 'void', attempt };
    case 'captured':
      return {
        kind: 'reject',
        reason: `payment attempt ${attempt.attemptId} is captured: a confirmed order cannot be cancelled, so this cancellation contradicts the order's history`,
      };
  }
}

/**
 * The fact that tells the saga the card step of its cancellation is done
 * without a void.
 *
 * @example
 * const event = nothingToVoid({ orderId, attempt, reason: 'declined', now: new Date() });
 */
export function nothingToVoid(input: {
  orderId: string;
  attempt: PaymentAttempt | undefined;
  reason: 'no_attempt' | 'declined' | 'key_closed';
  now: Date;
}): Extract<PaymentEvent, { type: 'PaymentNothingToVoid' }> {
  return {
    type: 'PaymentNothingToVoid',
    data: {
      orderId: input.orderId,
      paymentAttemptId: input.attempt?.attemptId ?? null,
      reason: input.reason,
      settledAt: input.now.toISOString(),
    },
  };
}

export type VoidDecision =
  | {
      readonly kind: 'record';
      readonly attempt: PaymentAttempt;
      readonly event: Extract<PaymentEvent, { type: 'PaymentVoided' }>;
    }
  /** Another delivery of the cancellation recorded the void (and its event) first. */
  | { readonly kind: 'already_recorded' };

/**
 * After the provider confirmed the void: the attempt becomes voided and
 * PaymentVoided tells the saga.
 *
 * @example
 * const decision = decideOnVoided({ attempt, now: new Date() });
 */
export function decideOnVoided(input: { attempt: PaymentAttempt; now: Date }): VoidDecision {
  const { attempt, now } = input;
  if (attempt.status === 'voided') return { kind: 'already_recorded' };
  const voided = voidAttempt(attempt);
  return {
    kind: 'record',
    attempt: voided,
    event: {
      type: 'PaymentVoided',
      data: {
        orderId: attempt.orderId,
        paymentAttemptId: attempt.attemptId,
        authorizationId: voided.authorizationId,
        voidedAt: now.toISOString(),
      },
    },
  };
}
