import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { StockFact } from '../facts/facts.types.js';
import { contextOf } from '../testing/facts.fixtures.js';
import { stockConserved } from './stock-conserved.check.js';

const row = (overrides: Partial<StockFact> = {}): StockFact => ({
  sku: 'SKU-MUG',
  available: 5,
  reserved: 2,
  stocked: 10,
  reservedLines: 2,
  consumedLines: 3,
  ...overrides,
});

const given = (...stock: StockFact[]) => ({
  whenChecked: (scope: AuditScope = {}) => stockConserved({ stock }, contextOf(scope)),
});

describe('stock-conserved', () => {
  it('given available + reserved + consumed = stocked and reserved matching its lines, when checked, then it holds', () => {
    const check = given(row()).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '1 of 1 SKU balance: available + reserved + consumed = stocked',
    });
  });

  it('given one unit more stocked than accounted for, when checked, then it is broken with the arithmetic', () => {
    const check = given(row({ stocked: 11 })).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toEqual([
      {
        subject: 'SKU-MUG',
        detail:
          'available 5 + reserved 2 + consumed 3 = 10, but 11 were stocked: 1 unit went missing',
      },
    ]);
  });

  it('given a reserved column that disagrees with the reservation lines, when checked, then it is broken', () => {
    const check = given(row({ reserved: 3, available: 4 })).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: 'SKU-MUG',
        detail: 'the reserved column says 3, but the reservation lines hold 2',
      },
    ]);
  });

  it('given a negative count, when checked, then it is broken', () => {
    const check = given(row({ available: -1, stocked: 4 })).whenChecked();

    expect(check.violations.map((violation) => violation.detail)).toContain(
      'available is negative (-1)',
    );
  });

  it('given a broken SKU outside the scope, when checked with a SKU scope, then it is not judged', () => {
    const check = given(row(), row({ sku: 'SKU-TEA', stocked: 99 })).whenChecked({
      skus: ['SKU-MUG', 'SKU-NEVER-STOCKED'],
    });

    expect(check).toMatchObject({ status: 'held', violations: [] });
  });
});
