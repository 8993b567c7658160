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
