import { describe, expect, it } from 'vitest';
import {
  decideAuthorization,
  type AuthorizationDecision,
  type AuthorizationRequest,
} from './authorization.decide.js';

const authorizationId = 'auth_0001';

function whenAuthorizing(paymentToken: string, amountCents = 2_000): AuthorizationDecision {
  const request: AuthorizationRequest = { amountCents, currency: 'EUR', paymentToken };
  return decideAuthorization({ request, authorizationId });
}

describe('decideAuthorization', () => {
  it('given tok_approve, it grants the amount at once', () => {
    expect(whenAuthorizing('tok_approve', 3_500)).toEqual({
      kind: 'authorize',
      response: {
        status: 201,
        body: { authorizationId, status: 'authorized', amountCents: 3_500 },
      },
      delayReply: false,
    });
  });

  it('given tok_timeout, it grants the amount but holds the reply back', () => {
    expect(whenAuthorizing('tok_timeout')).toEqual({
      kind: 'authorize',
      response: {
        status: 201,
        body: { authorizationId, status: 'authorized', amountCents: 2_000 },
      },
      delayReply: true,
    });
  });

  it('given tok_decline, it answers 402 card_declined, a final answer', () => {
    expect(whenAuthorizing('tok_decline')).toEqual({
      kind: 'decline',
      response: { status: 402, body: { status: 'declined', reason: 'card_declined' } },
    });
  });

  it('given tok_error, it fails transiently and grants nothing', () => {
    expect(whenAuthorizing('tok_error')).toEqual({ kind: 'fail_transiently' });
  });

  it('given a token it does not know, it declines with unknown_token, a final answer', () => {
    expect(whenAuthorizing('tok_aprove')).toEqual({
      kind: 'decline',
      response: { status: 402, body: { status: 'declined', reason: 'unknown_token' } },
    });
  });
});
