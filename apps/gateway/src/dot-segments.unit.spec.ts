import { describe, expect, it } from 'vitest';
import { hasDotSegment } from './dot-segments.js';

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
