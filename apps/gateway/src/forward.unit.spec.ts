import { describe, expect, it } from 'vitest';
import { fillPath } from './forward.js';

describe('fillPath', () => {
  it('puts each path parameter in its place', () => {
    expect(fillPath('/inventory/:sku/restock', { sku: 'SKU-RED-MUG' })).toBe(
      '/inventory/SKU-RED-MUG/restock',
    );
  });

  it('percent-encodes a parameter so it stays one path segment', () => {
    expect(fillPath('/orders/:orderId', { orderId: 'a/b?c#d' })).toBe('/orders/a%2Fb%3Fc%23d');
  });

  it('leaves a path without parameters as it is', () => {
    expect(fillPath('/ledger', {})).toBe('/ledger');
  });

  it('throws when the route did not capture a parameter the template needs', () => {
    expect(() => fillPath('/orders/:orderId', {})).toThrow(/orderId/);
  });
});
