import { describe, expect, it } from 'vitest';
import { amountCentsOf, UNIT_PRICE_CENTS } from './pricing.js';

describe('amountCentsOf', () => {
  it('charges the unit price for every unit of every line', () => {
    const items = [
      { sku: 'SKU-RED-MUG', quantity: 2 },
      { sku: 'SKU-TEA', quantity: 5 },
    ];

    expect(amountCentsOf(items)).toBe(7 * UNIT_PRICE_CENTS);
  });

  it('charges 1 000 cents for a single unit', () => {
    expect(amountCentsOf([{ sku: 'SKU-TEA', quantity: 1 }])).toBe(1_000);
  });
});
