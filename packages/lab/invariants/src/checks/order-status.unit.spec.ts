import { describe, expect, it } from 'vitest';
import { history, orderIdOf, ordersOf } from '../testing/facts.fixtures.js';
import { scopedHistories, statusOf } from './order-status.js';

const orderId = orderIdOf(1);

describe('statusOf', () => {
  it.each([
    [['OrderPlaced'], 'awaiting_inventory'],
    [['OrderPlaced', 'OrderPaymentRequested'], 'awaiting_payment'],
    [['OrderPlaced', 'OrderPaymentRequested', 'OrderCancellationRequested'], 'cancelling'],
    [['OrderPlaced', 'OrderCancellationRequested', 'OrderCompensated'], 'cancelling'],
    [['OrderPlaced', 'OrderPaymentRequested', 'OrderConfirmed'], 'confirmed'],
    [['OrderPlaced', 'OrderCancelled'], 'cancelled'],
    [['OrderPlaced', 'OrderCancellationRequested', 'OrderCancelled'], 'cancelled'],
  ])('given a stream of %j, when read, then the order is %s', (types, status) => {
    expect(statusOf(history(orderId, types))).toBe(status);
  });
});

describe('scopedHistories', () => {
  it('given a scope naming an order without a stream, when listed, then only streams that exist come back', () => {
    const orders = ordersOf(
      history(orderIdOf(1), ['OrderPlaced']),
      history(orderIdOf(2), ['OrderPlaced']),
    );

    expect(
      scopedHistories(orders, new Set([orderIdOf(2), orderIdOf(9)])).map((h) => h.orderId),
    ).toEqual([orderIdOf(2)]);
    expect(scopedHistories(orders, undefined)).toHaveLength(2);
  });
});
