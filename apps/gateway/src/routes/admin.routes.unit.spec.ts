import { describe, expect, it } from 'vitest';
import { adminPublicPath, adminUpstreamPath } from './admin.routes.js';

describe('adminUpstreamPath', () => {
  it('drops the public prefix and the service, keeping the rest as the client encoded it', () => {
    expect(adminUpstreamPath('/api/admin/inventory/parked/replay')).toBe('/admin/parked/replay');
    expect(adminUpstreamPath('/api/admin/order/parked/evt%2D1/replay?x=1')).toBe(
      '/admin/parked/evt%2D1/replay',
    );
  });
});

describe('adminPublicPath', () => {
  it('puts a service’s admin path under /api/admin/<service>', () => {
    expect(adminPublicPath('payment', '/admin/consumers/c-v1/replay/3')).toBe(
      '/api/admin/payment/consumers/c-v1/replay/3',
    );
  });

  it('leaves any other path as it is', () => {
    expect(adminPublicPath('payment', '/administrator')).toBe('/administrator');
    expect(adminPublicPath('payment', 'https://example.com/admin/x')).toBe(
      'https://example.com/admin/x',
    );
  });
});
