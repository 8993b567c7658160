// What the payment service does with an OrderCancellationRequested: before the
// provider's void (from the recorded attempt) and after it. Pure.
import type { PaymentEvent } from '@effectively-once/contracts';
import { voidAttempt, type AuthorizedAttempt, type PaymentAttempt } from './payment-attempt.js';

export type CancellationDecision =
  /** No attempt, a decline or a void already: there is no money held to release. */
  | { readonly kind: 'nothing' }
  /**
   * An authorization may be in flight: its answer decides whether a void is
   * needed, so the cancellation waits (retryable) until it is recorded.
   */
  | { readonly kind: 'wait'; readonly reason: string }
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
      return {
        kind: 'wait',
        reason: `payment attempt ${attempt.attemptId} is still pending: the cancellation waits for the provider's answer`,
      };
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
