import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './request-fingerprint.js';

describe('requestFingerprint', () => {
  it('is the same for the same body, whatever the order of its keys', () => {
    const a = { customerEmail: 'a@example.com', items: [{ sku: 'SKU-A', quantity: 1 }] };
    const b = { items: [{ quantity: 1, sku: 'SKU-A' }], customerEmail: 'a@example.com' };

    expect(requestFingerprint(a)).toBe(requestFingerprint(b));
    expect(requestFingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs when a value or the order of the lines differs', () => {
    const lines = [
      { sku: 'SKU-A', quantity: 1 },
      { sku: 'SKU-B', quantity: 1 },
    ];

    expect(requestFingerprint({ items: lines })).not.toBe(
      requestFingerprint({ items: lines.toReversed() }),
    );
    expect(requestFingerprint({ token: 'tok_approve' })).not.toBe(
      requestFingerprint({ token: 'tok_decline' }),
    );
  });

  it('writes canonical JSON: sorted keys, no white space, undefined members left out', () => {
    expect(canonicalJson({ b: [1, 'x'], a: { d: null, c: undefined } })).toBe(
      '{"a":{"d":null},"b":[1,"x"]}',
    );
  });
});
