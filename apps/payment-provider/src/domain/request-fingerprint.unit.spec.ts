import { describe, expect, it } from 'vitest';
import { authorizeFingerprint, voidFingerprint } from './request-fingerprint.js';

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
});
