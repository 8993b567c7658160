import { describe, expect, it } from 'vitest';
import {
  authorizeFingerprint,
  captureFingerprint,
  voidFingerprint,
} from './request-fingerprint.js';

describe('request fingerprints', () => {
  it('given the same parameters, the fingerprints are equal', () => {
    const first = authorizeFingerprint({
      amountCents: 100,
      currency: 'EUR',
      paymentToken: 'tok_approve',
    });
    const again = authorizeFingerprint({
      paymentToken: 'tok_approve',
      currency: 'EUR',
      amountCents: 100,
    });
    expect(again).toBe(first);
  });

  it('given another amount or token, the fingerprint differs', () => {
    const base = { amountCents: 100, currency: 'EUR', paymentToken: 'tok_approve' } as const;
    const fingerprint = authorizeFingerprint(base);
    expect(authorizeFingerprint({ ...base, amountCents: 101 })).not.toBe(fingerprint);
    expect(authorizeFingerprint({ ...base, paymentToken: 'tok_decline' })).not.toBe(fingerprint);
  });

  it('given voids of two authorizations, the fingerprints differ', () => {
    expect(voidFingerprint('auth_1')).not.toBe(voidFingerprint('auth_2'));
  });

  it('given captures of two authorizations, or with another amount, the fingerprints differ', () => {
    const full = captureFingerprint({ authorizationId: 'auth_1' });
    expect(captureFingerprint({ authorizationId: 'auth_2' })).not.toBe(full);
    expect(captureFingerprint({ authorizationId: 'auth_1', amountCents: 100 })).not.toBe(full);
    expect(captureFingerprint({ authorizationId: 'auth_1', amountCents: undefined })).toBe(full);
  });

  it('given a capture and a void of one authorization, the fingerprints differ', () => {
    expect(captureFingerprint({ authorizationId: 'auth_1' })).not.toBe(voidFingerprint('auth_1'));
  });
});
