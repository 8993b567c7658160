import { describe, expect, it } from 'vitest';
import {
  decideCapture,
  decideVoid,
  type AuthorizationState,
  type AuthorizationStatus,
} from './authorization-lifecycle.decide.js';

const authorizationId = 'auth_0001';
const authorization = (status: AuthorizationStatus): AuthorizationState => ({
  authorizationId,
  status,
  amountCents: 2_500,
});
const captured = {
  status: 200,
  body: { authorizationId, status: 'captured', amountCents: 2_500 },
} as const;
const voided = { status: 200, body: { authorizationId, status: 'voided' } } as const;

describe('decideCapture', () => {
  it('given an authorized authorization, it captures the full amount', () => {
    expect(decideCapture({ authorization: authorization('authorized') })).toEqual({
      kind: 'change',
      response: captured,
    });
  });

  it('given the full amount sent explicitly, it captures as without it', () => {
    expect(
      decideCapture({ authorization: authorization('authorized'), amountCents: 2_500 }),
    ).toEqual({ kind: 'change', response: captured });
  });

  it('given a captured authorization, it changes nothing and answers the same', () => {
    expect(decideCapture({ authorization: authorization('captured') })).toEqual({
      kind: 'unchanged',
      response: captured,
    });
  });

  it('given a voided authorization, it refuses: authorization_voided', () => {
    expect(decideCapture({ authorization: authorization('voided') })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'authorization_voided' },
    });
  });

  it('given an amount other than the authorized one, it refuses whatever the status', () => {
    for (const status of ['authorized', 'captured', 'voided'] as const) {
      expect(decideCapture({ authorization: authorization(status), amountCents: 1_000 })).toEqual({
        kind: 'refuse',
        refusal: { kind: 'capture_amount_mismatch', authorizedCents: 2_500, requestedCents: 1_000 },
      });
    }
  });
});

describe('decideVoid', () => {
  it('given an authorized authorization, it voids it', () => {
    expect(decideVoid({ authorization: authorization('authorized') })).toEqual({
      kind: 'change',
      response: voided,
    });
  });

  it('given a voided authorization, it changes nothing and answers the same', () => {
    expect(decideVoid({ authorization: authorization('voided') })).toEqual({
      kind: 'unchanged',
      response: voided,
    });
  });

  it('given a captured authorization, it refuses: authorization_captured', () => {
    expect(decideVoid({ authorization: authorization('captured') })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'authorization_captured' },
    });
  });
});
