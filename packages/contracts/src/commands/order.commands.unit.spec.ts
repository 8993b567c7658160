import { describe, expect, it } from 'vitest';
import { CancelOrder, ExpireOrder, PlaceOrder } from './order.commands.js';

const orderId = '6f1c2f4e-3b7a-4c55-9d0e-2a9f0c1b7e11';

describe('order commands', () => {
  it('given a complete PlaceOrder, when parsed, then it keeps the time it was given', () => {
    const now = new Date('2026-11-30T10:00:00.000Z');
    const data = {
      orderId,
      customerEmail: 'ada@example.com',
      items: [{ sku: 'SKU-MUG', quantity: 2 }],
      paymentToken: 'tok_approve',
      deadlines: {
        inventoryBy: '2026-11-30T10:00:30.000Z',
        paymentBy: '2026-11-30T10:02:00.000Z',
        completeBy: '2026-11-30T10:05:00.000Z',
      },
      now,
    };
    expect(PlaceOrder.data.parse(data)).toEqual(data);
    expect(PlaceOrder).toMatchObject({ type: 'PlaceOrder', schemaVersion: 1 });
  });

  it('given a CancelOrder without its time, when parsed, then it is refused', () => {
    const parsed = CancelOrder.data.safeParse({ orderId });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['now']);
  });

  it('given an ExpireOrder for a deadline the saga does not have, when parsed, then it is refused', () => {
    const parsed = ExpireOrder.data.safeParse({ orderId, deadline: 'shipping', now: new Date() });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['deadline']);
  });
});
