// What capture and void do to an authorization, decided from its current
// status. An authorization ends either captured (the money is taken) or voided
// (the hold is dropped), never both; asking for the end it already has
// changes nothing and gets the same answer, whatever the idempotency key.
import type { CaptureResponse, VoidResponse } from './provider.responses.js';

export type AuthorizationStatus = 'authorized' | 'captured' | 'voided';

/** The authorization as read, under its row lock, in the transaction that changes it. */
export interface AuthorizationState {
  authorizationId: string;
  status: AuthorizationStatus;
  amountCents: number;
}

/** Why a capture or void is refused. Not stored under the key: the status it comes from is final. */
export type LifecycleRefusal =
  | { kind: 'authorization_voided' }
  | { kind: 'authorization_captured' }
  | { kind: 'capture_amount_mismatch'; authorizedCents: number; requestedCents: number };

export type LifecycleDecision<Response> =
  /** Move the status on (authorized → captured or voided) and store the answer. */
  | { kind: 'change'; response: Response }
  /** It already has that status (by this key or another): nothing to write, the same answer. */
  | { kind: 'unchanged'; response: Response }
  | { kind: 'refuse'; refusal: LifecycleRefusal };

/**
 * Captures the full authorized amount. `amountCents`, when the client sends
 * it, must be that amount: partial captures are not supported, and taking
 * less than asked without saying so would be worse than refusing.
 *
 * @example
 * decideCapture({ authorization: { authorizationId: 'auth_1', status: 'authorized', amountCents: 2000 } })
 * // { kind: 'change', response: { status: 200, body: { authorizationId: 'auth_1', status: 'captured', amountCents: 2000 } } }
 */
export function decideCapture(input: {
  authorization: AuthorizationState;
  amountCents?: number | undefined;
}): LifecycleDecision<CaptureResponse> {
  const { authorizationId, status, amountCents: authorizedCents } = input.authorization;
  if (input.amountCents !== undefined && input.amountCents !== authorizedCents) {
    return {
      kind: 'refuse',
      refusal: {
        kind: 'capture_amount_mismatch',
        authorizedCents,
        requestedCents: input.amountCents,
      },
    };
  }
  const response = {
    status: 200,
    body: { authorizationId, status: 'captured', amountCents: authorizedCents },
  } as const;
  switch (status) {
    case 'authorized':
      return { kind: 'change', response };
    case 'captured':
      return { kind: 'unchanged', response };
    case 'voided':
      return { kind: 'refuse', refusal: { kind: 'authorization_voided' } };
    default: {
      const unreachable: never = status;
      throw new Error(`Unhandled authorization status ${String(unreachable)}`);
    }
  }
}

/**
 * Voids an authorization that was not captured.
 *
 * @example
 * decideVoid({ authorization: { authorizationId: 'auth_1', status: 'captured', amountCents: 2000 } })
 * // { kind: 'refuse', refusal: { kind: 'authorization_captured' } }
 */
export function decideVoid(input: {
  authorization: AuthorizationState;
}): LifecycleDecision<VoidResponse> {
  const { authorizationId, status } = input.authorization;
  const response = { status: 200, body: { authorizationId, status: 'voided' } } as const;
  switch (status) {
    case 'authorized':
      return { kind: 'change', response };
    case 'voided':
      return { kind: 'unchanged', response };
    case 'captured':
      return { kind: 'refuse', refusal: { kind: 'authorization_captured' } };
    default: {
      const unreachable: never = status;
      throw new Error(`Unhandled authorization status ${String(unreachable)}`);
    }
  }
}
