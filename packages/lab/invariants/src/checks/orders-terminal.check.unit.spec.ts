import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { OrderHistory } from '../facts/facts.types.js';
import { contextOf, history, JUST_NOW, orderIdOf, ordersOf } from '../testing/facts.fixtures.js';
import { ordersTerminal } from './orders-terminal.check.js';

const confirmed = history(orderIdOf(1), ['OrderPlaced', 'OrderPaymentRequested', 'OrderConfirmed']);
const cancelled = history(orderIdOf(2), ['OrderPlaced', 'OrderCancelled']);

const given = (...histories: OrderHistory[]) => ({
  whenChecked: (scope: AuditScope = {}) =>
    ordersTerminal({ orders: ordersOf(...histories) }, contextOf(scope)),
});

describe('orders-terminal', () => {
  it('given orders that ended confirmed or cancelled, when checked, then it holds', () => {
    const check = given(confirmed, cancelled).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '2 of 2 orders confirmed or cancelled',
    });
  });

  it('given an order placed a second ago and still waiting for its payment, when checked, then it is pending', () => {
    const young = history(orderIdOf(3), ['OrderPlaced', 'OrderPaymentRequested'], JUST_NOW);
    const check = given(confirmed, young).whenChecked();

    expect(check.status).toBe('pending');
    expect(check.pending).toEqual([
      `order ${orderIdOf(3)}: at OrderPaymentRequested, placed 1.0 s ago`,
    ]);
  });

  it('given an order halfway past the settle time, when checked, then it is broken: stuck', () => {
    const stuck = history(orderIdOf(3), ['OrderPlaced', 'OrderCancellationRequested']);
    const check = given(stuck).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${orderIdOf(3)}`,
        detail:
          'stuck at OrderCancellationRequested, placed 5.0 min ago: neither confirmed nor cancelled',
      },
    ]);
  });

  it('given an order with two outcomes, when checked, then it is broken', () => {
    const twice = history(orderIdOf(3), ['OrderPlaced', 'OrderConfirmed', 'OrderCancelled']);
    const check = given(twice).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      '2 outcomes (OrderConfirmed, OrderCancelled): an order ends once',
    );
  });

  it('given an event after the outcome, when checked, then it is broken', () => {
    const after = history(orderIdOf(3), ['OrderPlaced', 'OrderCancelled', 'OrderPaymentRequested']);
    const check = given(after).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      'OrderPaymentRequested after its outcome OrderCancelled',
    );
  });

  it('given a scoped order the store has no stream for, when checked, then it is broken', () => {
    const check = given(confirmed).whenChecked({ orderIds: [orderIdOf(1), orderIdOf(9)] });

    expect(check.violations).toEqual([
      {
        subject: `order ${orderIdOf(9)}`,
        detail: `the event store has no stream order-${orderIdOf(9)}`,
      },
    ]);
  });
});
