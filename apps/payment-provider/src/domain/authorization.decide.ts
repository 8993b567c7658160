// The fake card network: the payment token alone decides what happens, so a
// test or a demo picks the failure it wants to see.
import type {
  AuthorizationApproved,
  AuthorizationDeclined,
  DeclineReason,
} from './provider.responses.js';

export const PAYMENT_TOKENS = ['tok_approve', 'tok_decline', 'tok_timeout', 'tok_error'] as const;
export type PaymentToken = (typeof PAYMENT_TOKENS)[number];

export interface AuthorizationRequest {
  amountCents: number;
  currency: 'EUR';
  paymentToken: string;
}

export type AuthorizationDecision =
  /** Grant it; `delayReply` holds the (already stored) answer back so the client times out. */
  | {
      kind: 'authorize';
      response: { status: 201; body: AuthorizationApproved };
      delayReply: boolean;
    }
  /** A final answer: stored and replayed like an approval. */
  | { kind: 'decline'; response: { status: 402; body: AuthorizationDeclined } }
  /** An outage: nothing is stored, so a retry with the same key runs afresh. */
  | { kind: 'fail_transiently' };

function decline(reason: DeclineReason): AuthorizationDecision {
  return { kind: 'decline', response: { status: 402, body: { status: 'declined', reason } } };
}

function isPaymentToken(token: string): token is PaymentToken {
  return (PAYMENT_TOKENS as readonly string[]).includes(token);
}

/**
 * Decides an authorization from its token. `authorizationId` is the id a
 * granted authorization gets; the caller makes it, so this stays pure.
 *
 * @example
 * decideAuthorization({ request: { amountCents: 2000, currency: 'EUR', paymentToken: 'tok_decline' }, authorizationId: 'auth_1' })
 * // { kind: 'decline', response: { status: 402, body: { status: 'declined', reason: 'card_declined' } } }
 */
export function decideAuthorization(input: {
  request: AuthorizationRequest;
  authorizationId: string;
}): AuthorizationDecision {
  const { request, authorizationId } = input;
  // A card network answers a card it does not know with a decline, not an
  // error: the answer is final, so it is stored and replayed like any other.
  if (!isPaymentToken(request.paymentToken)) return decline('unknown_token');
  const approved = {
    status: 201,
    body: { authorizationId, status: 'authorized', amountCents: request.amountCents },
  } as const;
  switch (request.paymentToken) {
    case 'tok_approve':
      return { kind: 'authorize', response: approved, delayReply: false };
    case 'tok_timeout':
      return { kind: 'authorize', response: approved, delayReply: true };
    case 'tok_decline':
      return decline('card_declined');
    case 'tok_error':
      return { kind: 'fail_transiently' };
    default: {
      const unreachable: never = request.paymentToken;
      throw new Error(`Unhandled payment token ${String(unreachable)}`);
    }
  }
}
