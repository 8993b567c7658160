// A request's parameters as one comparable string: a key reused with other
// parameters is a client bug, and the provider must tell it from a retry.
import type { AuthorizationRequest } from './authorization.decide.js';

/** Same parameters, same string: keys are listed in a fixed order. */
export function authorizeFingerprint(request: AuthorizationRequest): string {
  return JSON.stringify({
    operation: 'authorize',
    amountCents: request.amountCents,
    currency: request.currency,
    paymentToken: request.paymentToken,
  });
}

export function voidFingerprint(authorizationId: string): string {
  return JSON.stringify({ operation: 'void', authorizationId });
}

/** The amount is part of it: a key reused with another requested amount is a different request. */
export function captureFingerprint(input: {
  authorizationId: string;
  amountCents?: number | undefined;
}): string {
  return JSON.stringify({
    operation: 'capture',
    authorizationId: input.authorizationId,
    amountCents: input.amountCents ?? null,
  });
}

/** What a closed key's tombstone holds in place of a request: no request matches it. */
export const CLOSED_KEY_FINGERPRINT = JSON.stringify({ operation: 'close' });
