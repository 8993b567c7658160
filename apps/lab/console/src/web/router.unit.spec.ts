import { describe, expect, it } from 'vitest';
import { parseRoute, routeKey, routes } from './router.js';

describe('router', () => {
  it('given the hash of each view, when parsed, then the matching route comes back', () => {
    expect(parseRoute('')).toEqual({ view: 'orders' });
    expect(parseRoute('#/')).toEqual({ view: 'orders' });
    expect(parseRoute('#/orders/0b7c6f64-3b7e')).toEqual({
      view: 'order',
      orderId: '0b7c6f64-3b7e',
    });
    expect(parseRoute('#/system')).toEqual({ view: 'system' });
    expect(parseRoute('#/scenarios')).toEqual({ view: 'scenarios' });
    expect(parseRoute('#/scenarios/runs/r-1')).toEqual({ view: 'run', runId: 'r-1' });
    expect(parseRoute('#/orders/0b7c6f64-3b7e/lineage')).toEqual({
      view: 'lineage',
      orderId: '0b7c6f64-3b7e',
    });
    expect(parseRoute('#/orders/0b7c6f64-3b7e/trace')).toEqual({
      view: 'trace',
      orderId: '0b7c6f64-3b7e',
    });
    expect(parseRoute('#/stuck')).toEqual({ view: 'stuck' });
  });

  it('given an unknown or malformed hash, when parsed, then the route is not found', () => {
    expect(parseRoute('#/nowhere')).toEqual({ view: 'not-found', hash: '#/nowhere' });
    expect(parseRoute('#/orders/')).toEqual({ view: 'not-found', hash: '#/orders/' });
  });

  it('given a link built for an id, when parsed back, then the same id comes out', () => {
    const id = 'run 1/2';
    expect(parseRoute(routes.run(id))).toEqual({ view: 'run', runId: id });
    expect(routeKey(parseRoute(routes.order('o-1')))).toBe('order:o-1');
    expect(routeKey(parseRoute(routes.lineage('o 1/2')))).toBe('lineage:o 1/2');
    expect(routeKey(parseRoute(routes.trace('o 1/2')))).toBe('trace:o 1/2');
  });
});
