import { describe, expect, it } from 'vitest';
import type { Placement } from '../facts/facts.types.js';
import { LONG_AGO, messageIdOf, orderIdOf } from '../testing/facts.fixtures.js';
import { includesOrder, resolveScope, skusToJudge } from './scope.js';

const placements: Placement[] = [
  {
    messageId: messageIdOf(1),
    orderId: orderIdOf(1),
    items: [{ sku: 'SKU-MUG', quantity: 1 }],
    completeBy: null,
    createdAt: LONG_AGO,
  },
  {
    messageId: messageIdOf(2),
    orderId: orderIdOf(2),
    items: [{ sku: 'SKU-TEA', quantity: 1 }],
    completeBy: null,
    createdAt: LONG_AGO,
  },
];

describe('resolveScope', () => {
  it('given no scope, when resolved, then every order and SKU is judged', () => {
    const scope = resolveScope({}, placements);

    expect(includesOrder(scope, orderIdOf(9))).toBe(true);
    expect(includesOrder(scope, undefined)).toBe(true);
    expect(skusToJudge(scope, ['SKU-B', 'SKU-A'])).toEqual(['SKU-A', 'SKU-B']);
  });

  it('given orders but no SKUs, when resolved, then the SKUs are those the orders placed', () => {
    const scope = resolveScope({ orderIds: [orderIdOf(1)] }, placements);

    expect(includesOrder(scope, orderIdOf(1))).toBe(true);
    expect(includesOrder(scope, orderIdOf(2))).toBe(false);
    expect(includesOrder(scope, undefined)).toBe(false);
    expect(skusToJudge(scope, ['SKU-TEA'])).toEqual(['SKU-MUG']);
  });

  it('given SKUs, when resolved, then exactly those are judged', () => {
    const scope = resolveScope({ orderIds: [orderIdOf(1)], skus: ['SKU-X'] }, placements);

    expect(skusToJudge(scope, ['SKU-MUG'])).toEqual(['SKU-X']);
  });
});
