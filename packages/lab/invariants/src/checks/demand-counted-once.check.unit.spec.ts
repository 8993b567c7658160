import { CONSUMERS } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { DemandFact, Marker, Placement } from '../facts/facts.types.js';
import {
  contextOf,
  JUST_NOW,
  LONG_AGO,
  messageIdOf,
  orderIdOf,
} from '../testing/facts.fixtures.js';
import { demandCountedOnce } from './demand-counted-once.check.js';

const MUG = 'SKU-MUG';
const TEA = 'SKU-TEA';

const placement = (n: number, quantity: number, createdAt = LONG_AGO, sku = MUG): Placement => ({
  messageId: messageIdOf(n),
  orderId: orderIdOf(n),
  items: [{ sku, quantity }],
  completeBy: null,
  createdAt,
});
const counted = (n: number): Marker => ({
  database: 'inventory',
  consumer: CONSUMERS.inventoryDemand,
  messageId: messageIdOf(n),
});
const tally = (unitsOrdered: number, orders: number, sku = MUG): DemandFact => ({
  sku,
  unitsOrdered,
  orders,
});

function given(placements: Placement[], markers: Marker[], demand: DemandFact[]) {
  return {
    whenChecked: (scope: AuditScope = {}) =>
      demandCountedOnce({ placements, markers, demand }, contextOf(scope)),
  };
}

describe('demand-counted-once', () => {
  it('given a tally equal to the store, when checked, then it holds', () => {
    const check = given(
      [placement(1, 2), placement(2, 3)],
      [counted(1), counted(2)],
      [tally(5, 2)],
    ).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: "1 of 1 SKU counted exactly as the store's OrderPlaced events",
    });
  });

  it('given a tally above the store (a message counted twice), when checked, then it is broken at once', () => {
    const check = given([placement(1, 2, JUST_NOW)], [counted(1)], [tally(4, 2)]).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toEqual([
      {
        subject: MUG,
        detail:
          'sku_demand counts 4 units over 2 orders, the store holds 2 units over 1 OrderPlaced event (more than the store holds: a message was counted twice)',
      },
    ]);
  });

  it('given a shortfall made of a young OrderPlaced not yet marked, when checked, then it is pending', () => {
    const check = given(
      [placement(1, 2), placement(2, 3, JUST_NOW)],
      [counted(1)],
      [tally(2, 1)],
    ).whenChecked();

    expect(check.status).toBe('pending');
    expect(check.pending).toEqual([
      `${MUG}: 2 of 5 units counted; 1 OrderPlaced not yet counted (youngest 1.0 s old)`,
    ]);
  });

  it('given a shortfall past the settle time, when checked, then it is broken (a message never counted)', () => {
    const check = given(
      [placement(1, 2), placement(2, 3)],
      [counted(1)],
      [tally(2, 1)],
    ).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations[0]?.detail).toContain('a message was never counted');
  });

  it('given a marked OrderPlaced whose units are missing (marker without its effect), when checked, then it is broken', () => {
    const check = given([placement(1, 2, JUST_NOW)], [counted(1)], []).whenChecked();

    expect(check.status).toBe('broken');
  });

  it('given a SKU outside the scope that is off, when checked with a SKU scope, then only the scoped SKU is judged', () => {
    const check = given(
      [placement(1, 2), placement(2, 1, LONG_AGO, TEA)],
      [counted(1), counted(2)],
      [tally(2, 1), tally(9, 9, TEA)],
    ).whenChecked({ skus: [MUG] });

    expect(check.status).toBe('held');
  });
});
