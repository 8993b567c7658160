import { describe, expect, it } from 'vitest';
import { toPublicPath } from './public-path.js';
import { FORWARDED_ROUTES } from './routes/forward.routes.js';

describe('toPublicPath', () => {
  it("maps a service's resource path to the gateway's", () => {
    expect(toPublicPath(FORWARDED_ROUTES, 'order', '/orders/8d6f3c1e')).toBe(
      '/api/orders/8d6f3c1e',
    );
  });

  it('maps a path whose public name differs from the service’s', () => {
    expect(toPublicPath(FORWARDED_ROUTES, 'payment-provider', '/ledger?idempotencyKey=k')).toBe(
      '/api/payments/ledger?idempotencyKey=k',
    );
  });

  it('keeps percent-encoding as it is', () => {
    expect(toPublicPath(FORWARDED_ROUTES, 'inventory', '/inventory/A%2FB')).toBe(
      '/api/inventory/A%2FB',
    );
  });

  it('leaves a path no public route leads to, or another service’s, unchanged', () => {
    expect(toPublicPath(FORWARDED_ROUTES, 'order', '/metrics')).toBe('/metrics');
    expect(toPublicPath(FORWARDED_ROUTES, 'payment', '/orders/42')).toBe('/orders/42');
    expect(toPublicPath(FORWARDED_ROUTES, 'order', 'http://elsewhere/orders/42')).toBe(
      'http://elsewhere/orders/42',
    );
  });
});
