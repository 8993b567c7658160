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
  /** No attempt, a decline or a void already: there is no money held to release. */
  | { readonly kind: 'nothing' }
  /**
   * The attempt reached the provider or may have: only the provider's answer
   * says whether money is held. The cancellation asks for it with the
   * attempt's own idempotency key (a replay, never a second charge), records
   * it, and decides again. Waiting for the request's redelivery instead could
   * outlast the group's retries and park the cancellation.
   */
  | { readonly kind: 'settle'; readonly attempt: PendingAttempt }
  | { readonly kind: 'void'; readonly attempt: AuthorizedAttempt };

/**
 * @example
 * const decision = decideOnCancellation({ attempt });
 * if (decision.kind === 'void') await provider.voidAuthorization(decision.attempt);
 */
export function decideOnCancellation(input: {
  attempt: PaymentAttempt | undefined;
}): CancellationDecision {
  const { attempt } = input;
  if (attempt === undefined) return { kind: 'nothing' };
  switch (attempt.status) {
    case 'declined':
    case 'voided':
      return { kind: 'nothing' };
    case 'pending':
      return { kind: 'settle', attempt };
    case 'authorized':
      return { kind: 'void', attempt };
  }
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
