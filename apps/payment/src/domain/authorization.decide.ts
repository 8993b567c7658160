// What the payment service does with an OrderPaymentRequested, in two steps:
// before the provider call (from what is already recorded) and after it (from
// the provider's answer). Pure: the handler does the I/O around them.
import type { EventOf, OrderPaymentRequested, PaymentEvent } from '@effectively-once/contracts';
import {
  abandon,
  authorize,
  decline,
  isFinal,
  startAttempt,
  type PaymentAttempt,
  type PendingAttempt,
} from './payment-attempt.js';
import type { AuthorizationAnswer } from './provider-answer.js';

export type PaymentRequest = EventOf<typeof OrderPaymentRequested>['data'];

export type RequestDecision =
  /** Ask the provider, with the attempt's key. `isNew`: record the attempt first. */
  | { readonly kind: 'call_provider'; readonly attempt: PendingAttempt; readonly isNew: boolean }
  /** The order was cancelled before any attempt existed: nothing was, or will be, authorized. */
  | { readonly kind: 'skip_cancelled' }
  /** The provider's answer is already recorded: calling again would change nothing. */
  | { readonly kind: 'already_final'; readonly attempt: PaymentAttempt }
  /** The request contradicts the recorded attempt: a bug upstream, never fixed by a retry. */
  | { readonly kind: 'reject'; readonly reason: string };

/**
 * Decides, from what is recorded for the order, whether the provider must be asked.
 * A pending attempt is asked again even after a cancellation: an earlier
 * delivery may have reached the provider, and only its answer tells the
 * cancellation whether there is an authorization to void.
 *
 * @example
 * const decision = decideOnPaymentRequest({ request: event.data, attempt, cancelled: false });
 */
export function decideOnPaymentRequest(input: {
  request: PaymentRequest;
  attempt: PaymentAttempt | undefined;
  cancelled: boolean;
}): RequestDecision {
  const { request, attempt, cancelled } = input;
  if (attempt === undefined) {
    if (cancelled) return { kind: 'skip_cancelled' };
    const started = startAttempt({
      attemptId: request.paymentAttemptId,
      orderId: request.orderId,
      amountCents: request.amountCents,
      paymentToken: request.paymentToken,
    });
    return { kind: 'call_provider', attempt: started, isNew: true };
  }
  const mismatch = describeMismatch(attempt, request);
  if (mismatch !== undefined) return { kind: 'reject', reason: mismatch };
  if (isFinal(attempt)) return { kind: 'already_final', attempt };
  return { kind: 'call_provider', attempt, isNew: false };
}

export type AnswerDecision =
  | {
      readonly kind: 'record';
      readonly attempt: PaymentAttempt;
      readonly event: Extract<
        PaymentEvent,
        { type: 'PaymentAuthorized' | 'PaymentDeclined' | 'PaymentUnavailable' }
      >;
    }
  /** Another delivery recorded the answer (and emitted its event) first. */
  | { readonly kind: 'already_recorded' }
  | { readonly kind: 'reject'; readonly reason: string };

/**
 * Turns the provider's answer into the attempt's next state and the event that
 * tells the order saga. A decline is a business outcome, recorded like an authorization.
 *
 * @example
 * const decision = decideOnAuthorizationAnswer({ attempt, answer, now: new Date() });
 */
export function decideOnAuthorizationAnswer(input: {
  attempt: PaymentAttempt;
  answer: AuthorizationAnswer;
  now: Date;
}): AnswerDecision {
  const { attempt, answer, now } = input;
  if (isFinal(attempt)) return { kind: 'already_recorded' };
  const { orderId, attemptId: paymentAttemptId } = attempt;
  switch (answer.kind) {
    case 'authorized': {
      if (answer.amountCents !== attempt.amountCents) {
        return {
          kind: 'reject',
          reason: `provider authorized ${String(answer.amountCents)} cents for attempt ${paymentAttemptId}, which asked for ${String(attempt.amountCents)}`,
        };
      }
      const { authorizationId, amountCents } = answer;
      return {
        kind: 'record',
        attempt: authorize(attempt, authorizationId),
        event: {
          type: 'PaymentAuthorized',
          data: {
            orderId,
            paymentAttemptId,
            authorizationId,
            amountCents,
            authorizedAt: now.toISOString(),
          },
        },
      };
    }
    case 'declined':
      return {
        kind: 'record',
        attempt: decline(attempt, answer.reason),
        event: {
          type: 'PaymentDeclined',
          data: { orderId, paymentAttemptId, reason: answer.reason, declinedAt: now.toISOString() },
        },
      };
    case 'closed':
      // The key was closed with nothing stored: the processor never
      // authorized, and now never will under this attempt.
      return {
        kind: 'record',
        attempt: abandon(attempt),
        event: {
          type: 'PaymentUnavailable',
          data: {
            orderId,
            paymentAttemptId,
            reason:
              "the attempt's key was closed at the card processor with nothing authorized under it",
            gaveUpAt: now.toISOString(),
          },
        },
      };
    default: {
      const unknown: never = answer;
      throw new Error(`Unknown provider answer ${JSON.stringify(unknown)}`);
    }
  }
}

function describeMismatch(attempt: PaymentAttempt, request: PaymentRequest): string | undefined {
  if (attempt.attemptId !== request.paymentAttemptId) {
    return `order ${request.orderId} already has payment attempt ${attempt.attemptId}; a second attempt (${request.paymentAttemptId}) is not supported`;
  }
  if (
    attempt.amountCents !== request.amountCents ||
    attempt.paymentToken !== request.paymentToken
  ) {
    return `payment attempt ${attempt.attemptId} was recorded with another amount or token than this request carries`;
  }
  return undefined;
}
