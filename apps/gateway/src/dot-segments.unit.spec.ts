import { describe, expect, it } from 'vitest';
import { climbsOutOfRoute, hasDotSegment } from './dot-segments.js';

describe('hasDotSegment', () => {
  it.each([
    '/api/orders/../cancel',
    '/api/../api/orders',
    '/api/orders/.',
    '/api/orders/%2e%2E/cancel',
    '/api/orders/%2E/x',
    '/api/orders/.%2e?x=1',
  ])('finds one in %s', (url) => {
    expect(hasDotSegment(url)).toBe(true);
  });

  it.each(['/api/orders/a..b', '/api/orders/...', '/api/orders?path=../x', '/api/emails?to=a.b'])(
    'finds none in %s',
    (url) => {
      expect(hasDotSegment(url)).toBe(false);
    },
  );
});

describe('climbsOutOfRoute', () => {
  it.each([
    '/orders/..%20',
    '/orders/...',
    '/orders/..x',
    '/orders/a..%2Fb',
    '/orders/a%2F..b/cancel',
  ])('refuses %s, whose decoded form has a segment starting or ending with ".."', (path) => {
    expect(climbsOutOfRoute(path)).toBe(true);
  });

  it.each([
    '/orders/a..b',
    '/orders/a..',
    '/orders/%2E',
    '/orders/%ZZ',
    '/inventory/SKU-1/restock',
  ])('lets %s through', (path) => {
    expect(climbsOutOfRoute(path)).toBe(false);
  });
});
