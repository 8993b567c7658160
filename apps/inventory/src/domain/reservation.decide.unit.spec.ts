import { describe, expect, it } from 'vitest';
import { decideReservation, type StockOnHand } from './reservation.decide.js';
import type { OrderLine } from '@effectively-once/contracts';

const orderId = '0d8f6a52-6a0e-4b8e-9f59-8f3c5a1e2b70';
const now = new Date('2026-12-01T10:00:00.000Z');

const given = (stock: StockOnHand[]) => ({
  whenOrdered: (lines: OrderLine[]) => decideReservation({ orderId, lines, stock, now }),
});

describe('decideReservation', () => {
  it('given enough stock of every line, when ordered, then every line is reserved', () => {
    const decision = given([
      { sku: 'SKU-MUG', available: 3 },
      { sku: 'SKU-TEA', available: 10 },
    ]).whenOrdered([
      { sku: 'SKU-MUG', quantity: 3 },
      { sku: 'SKU-TEA', quantity: 1 },
    ]);

    expect(decision).toEqual({
      type: 'InventoryReserved',
      data: {
        orderId,
        items: [
          { sku: 'SKU-MUG', quantity: 3 },
          { sku: 'SKU-TEA', quantity: 1 },
        ],
        reservedAt: '2026-12-01T10:00:00.000Z',
      },
    });
  });

  it('given one line short, when ordered, then the whole order is rejected naming only that line', () => {
    const decision = given([
      { sku: 'SKU-MUG', available: 2 },
      { sku: 'SKU-TEA', available: 10 },
    ]).whenOrdered([
      { sku: 'SKU-MUG', quantity: 3 },
      { sku: 'SKU-TEA', quantity: 1 },
    ]);

    expect(decision).toEqual({
      type: 'InventoryReservationRejected',
      data: {
        orderId,
        shortages: [{ sku: 'SKU-MUG', requested: 3, available: 2 }],
        rejectedAt: '2026-12-01T10:00:00.000Z',
      },
    });
  });

  it('given an unknown SKU, when ordered, then it counts as 0 available and the order is rejected', () => {
    const decision = given([{ sku: 'SKU-MUG', available: 5 }]).whenOrdered([
      { sku: 'SKU-MUG', quantity: 1 },
      { sku: 'SKU-GHOST', quantity: 2 },
    ]);

    expect(decision).toEqual({
      type: 'InventoryReservationRejected',
      data: {
        orderId,
        shortages: [{ sku: 'SKU-GHOST', requested: 2, available: 0 }],
        rejectedAt: '2026-12-01T10:00:00.000Z',
      },
    });
  });

  it('given exactly the ordered quantity, when ordered, then it is reserved down to zero', () => {
    const decision = given([{ sku: 'SKU-MUG', available: 4 }]).whenOrdered([
      { sku: 'SKU-MUG', quantity: 4 },
    ]);

    expect(decision.type).toBe('InventoryReserved');
  });

  it('given every line short, when ordered, then every shortage is named', () => {
    const decision = given([
      { sku: 'SKU-MUG', available: 0 },
      { sku: 'SKU-TEA', available: 1 },
    ]).whenOrdered([
      { sku: 'SKU-MUG', quantity: 1 },
      { sku: 'SKU-TEA', quantity: 2 },
    ]);

    expect(decision).toMatchObject({
      type: 'InventoryReservationRejected',
      data: {
        shortages: [
          { sku: 'SKU-MUG', requested: 1, available: 0 },
          { sku: 'SKU-TEA', requested: 2, available: 1 },
        ],
      },
    });
  });
});
