import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type {
  OrderHistory,
  PaymentAttemptFact,
  ProviderAuthorization,
} from '../facts/facts.types.js';
import {
  ago,
  contextOf,
  history,
  JUST_NOW,
  LONG_AGO,
  ledgerEntry,
  orderIdOf,
  ordersOf,
  paymentAttempt,
} from '../testing/facts.fixtures.js';
import { oneCapturePerConfirmedOrder } from './one-capture-per-confirmed-order.check.js';

const orderId = orderIdOf(1);
const CONFIRMED = ['OrderPlaced', 'OrderPaymentRequested', 'OrderConfirmed'];
/** Confirmed long past the settle time (its third event, 2 s after LONG_AGO). */
const confirmedLongAgo = history(orderId, CONFIRMED);
/** Confirmed at JUST_NOW: within the settle time. */
const confirmedJustNow = history(orderId, CONFIRMED, ago(3_000));
const captured = (overrides: Partial<ProviderAuthorization> = {}) =>
  ledgerEntry(1, { status: 'captured', capturedAt: LONG_AGO, ...overrides });
const capturedAttempt = paymentAttempt(1, { status: 'captured' });

function given(input: {
  orders?: OrderHistory[];
  authorizations: ProviderAuthorization[];
  paymentAttempts: PaymentAttemptFact[];
}) {
  const orders = input.orders ?? [confirmedLongAgo];
  const facts = {
    orders: ordersOf(...orders),
    confirmedWith: new Map(orders.map((entry) => [entry.orderId, 'auth-1'])),
    authorizations: input.authorizations,
    paymentAttempts: input.paymentAttempts,
  };
  return {
    whenChecked: (scope: AuditScope = {}) => oneCapturePerConfirmedOrder(facts, contextOf(scope)),
  };
}

describe('one-capture-per-confirmed-order', () => {
  it('given a confirmed order whose authorization was captured and recorded, when checked, then it holds', () => {
    const check = given({
      authorizations: [captured()],
      paymentAttempts: [capturedAttempt],
    }).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '1 of 1 confirmed order captured once',
      violations: [],
      pending: [],
    });
  });

  it('given an order confirmed a moment ago with nothing captured yet, when checked, then it is pending: the capture follows the confirmation', () => {
    const check = given({
      orders: [confirmedJustNow],
      authorizations: [ledgerEntry(1)],
      paymentAttempts: [paymentAttempt(1)],
    }).whenChecked();

    expect(check.status).toBe('pending');
    expect(check.pending).toEqual([
      `order ${orderId}: confirmed 1.0 s ago; the capture is on its way`,
    ]);
  });

  it('given an order confirmed long ago whose authorization is still only authorized, when checked, then it is broken: the money was never taken', () => {
    const check = given({
      authorizations: [ledgerEntry(1)],
      paymentAttempts: [capturedAttempt],
    }).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${orderId}`,
        detail:
          'confirmed 5.0 min ago, but nothing was captured: authorization auth-1 is authorized; payment attempt: captured',
      },
    ]);
  });

  it('given an order confirmed long ago with no authorization at the processor at all, when checked, then it is broken', () => {
    const check = given({ authorizations: [], paymentAttempts: [] }).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      'confirmed 5.0 min ago, but nothing was captured: the card processor has no authorization auth-1; payment attempt: none',
    );
  });

  it('given two captures for one confirmed order, when checked, then it is broken: charged twice', () => {
    const second = captured({
      authorizationId: 'auth-9',
      idempotencyKey: `authorize:${orderId}:2`,
    });
    const check = given({
      authorizations: [captured(), second],
      paymentAttempts: [capturedAttempt],
    }).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${orderId}`,
        detail:
          '2 captures at the card processor (auth-1, auth-9): the customer was charged more than once',
      },
    ]);
  });

  it('given a capture of another authorization than the one the order was confirmed with, when checked, then it is broken', () => {
    const other = captured({ authorizationId: 'auth-9' });
    const check = given({
      authorizations: [other],
      paymentAttempts: [paymentAttempt(1, { status: 'captured', authorizationId: 'auth-9' })],
    }).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      'captured auth-9, but the order was confirmed with auth-1',
    );
  });

  it('given a capture the payment service has not recorded yet, when checked, then it is pending for the settle time, then broken', () => {
    const fresh = given({
      authorizations: [captured({ capturedAt: JUST_NOW })],
      paymentAttempts: [paymentAttempt(1)],
    }).whenChecked();
    const old = given({
      authorizations: [captured()],
      paymentAttempts: [paymentAttempt(1)],
    }).whenChecked();

    expect(fresh.pending).toEqual([
      `order ${orderId}: auth-1 captured at the card processor 1.0 s ago, but its payment attempt is authorized: the record is on its way`,
    ]);
    expect(old.violations[0]?.detail).toBe(
      'auth-1 captured at the card processor 5.0 min ago, but its payment attempt is authorized',
    );
  });

  it('given a cancelled or unfinished order without a capture, when checked, then it is not judged', () => {
    const cancelled = history(orderIdOf(2), ['OrderPlaced', 'OrderCancelled']);
    const unfinished = history(orderIdOf(3), ['OrderPlaced', 'OrderPaymentRequested']);
    const check = given({
      orders: [cancelled, unfinished],
      authorizations: [],
      paymentAttempts: [],
    }).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '0 of 0 confirmed orders captured once',
    });
  });

  it('given an uncaptured confirmed order outside the scope, when checked with an order scope, then it is not judged', () => {
    const check = given({ authorizations: [], paymentAttempts: [] }).whenChecked({
      orderIds: [orderIdOf(2)],
    });

    expect(check.status).toBe('held');
  });
});
