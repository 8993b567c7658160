import { CONSUMERS, type CompensationStep } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { Marker, OrderHistory, ParkedFact, Placement } from '../facts/facts.types.js';
import {
  ago,
  contextOf,
  history,
  LONG_AGO,
  messageIdOf,
  orderIdOf,
  ordersOf,
} from '../testing/facts.fixtures.js';
import { ordersWithinDeadline, type DeadlineFacts } from './orders-within-deadline.check.js';

const orderId = orderIdOf(1);
/** Its overall deadline passed two minutes ago: long past the settle time. */
const PASSED = ago(2 * 60_000);
const AWAITING_PAYMENT = ['OrderPlaced', 'OrderPaymentRequested'];
const CANCELLING = [...AWAITING_PAYMENT, 'OrderCancellationRequested'];
/** The id history() gives the OrderCancellationRequested of CANCELLING. */
const cancellationRequestId = `${orderId}-2`;

const placed = (forOrder: string, completeBy: Date | null): Placement => ({
  messageId: messageIdOf(1),
  orderId: forOrder,
  items: [{ sku: 'SKU-MUG', quantity: 1 }],
  completeBy,
  createdAt: LONG_AGO,
});

function given(input: {
  orders: OrderHistory[];
  completeBy?: Date | null;
  compensated?: readonly CompensationStep[];
  markers?: Marker[];
  parked?: ParkedFact[];
}) {
  const facts: DeadlineFacts = {
    orders: ordersOf(...input.orders),
    placements: input.orders.map((entry) =>
      placed(entry.orderId, input.completeBy === undefined ? PASSED : input.completeBy),
    ),
    compensated: new Map([[orderId, new Set(input.compensated ?? [])]]),
    markers: input.markers ?? [],
    parked: input.parked ?? [],
  };
  return { whenChecked: (scope: AuditScope = {}) => ordersWithinDeadline(facts, contextOf(scope)) };
}

const late = `2.0 min past its deadline (completeBy ${PASSED.toISOString()})`;

describe('orders-within-deadline', () => {
  it('given orders that ended, and one still running before its deadline, when checked, then it holds', () => {
    const confirmed = history(orderIdOf(1), [...AWAITING_PAYMENT, 'OrderConfirmed']);
    const cancelled = history(orderIdOf(2), ['OrderPlaced', 'OrderCancelled']);
    const running = history(orderIdOf(3), AWAITING_PAYMENT);
    const ended = given({ orders: [confirmed, cancelled] }).whenChecked();
    const early = given({ orders: [running], completeBy: ago(-60_000) }).whenChecked();

    expect(ended).toMatchObject({
      status: 'held',
      summary: '2 orders with a deadline; none unfinished past it',
    });
    expect(early).toMatchObject({
      status: 'held',
      summary: '1 order with a deadline; none unfinished past it',
      violations: [],
      pending: [],
    });
  });

  it('given an order awaiting payment long past its deadline, when checked, then it is broken: the timer did not cancel it', () => {
    const check = given({ orders: [history(orderId, AWAITING_PAYMENT)] }).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${orderId}`,
        detail: `awaiting_payment ${late}, and no cancellation was ever requested: its deadline timer did not fire, or fired without effect`,
      },
    ]);
  });

  it('given an order whose deadline passed a moment ago, when checked, then it is pending: the timer cancels it now', () => {
    const justPassed = ago(2_000);
    const check = given({
      orders: [history(orderId, ['OrderPlaced'])],
      completeBy: justPassed,
    }).whenChecked();

    expect(check.pending).toEqual([
      `order ${orderId}: awaiting_inventory 2.0 s past its deadline (completeBy ${justPassed.toISOString()}): its cancellation may be on its way`,
    ]);
  });

  it('given a cancelling order past its deadline whose void is still being retried, when checked, then it is reported with that reason as pending, not broken', () => {
    const check = given({
      orders: [history(orderId, CANCELLING)],
      compensated: ['inventory'],
    }).whenChecked();

    expect(check.status).toBe('pending');
    expect(check.violations).toEqual([]);
    expect(check.pending).toEqual([
      `order ${orderId}: cancelling ${late}: the void of the card is still being retried by payment-authorization-v1 (not processed yet, nothing parked): it waits for the card processor or the payment service to answer again, and finishes by itself then`,
    ]);
  });

  it('given a cancelling order past its deadline whose void was parked, when checked, then it is broken: it will not finish by itself', () => {
    const parked: ParkedFact = {
      group: CONSUMERS.paymentAuthorization,
      messageId: cancellationRequestId,
      type: 'OrderCancellationRequested',
      orderId,
      reason: 'card processor answered 503',
    };
    const check = given({
      orders: [history(orderId, CANCELLING)],
      compensated: ['inventory'],
      parked: [parked],
    }).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      `cancelling ${late}: the void of the card is parked in payment-authorization-v1 (OrderCancellationRequested: card processor answered 503) and will not finish by itself`,
    );
  });

  it('given a cancelling order whose release was processed but never recorded by the saga, when checked, then it is broken even if the void is still retrying', () => {
    const released: Marker = {
      database: 'inventory',
      consumer: CONSUMERS.inventoryReservation,
      messageId: cancellationRequestId,
    };
    const check = given({
      orders: [history(orderId, CANCELLING)],
      markers: [released],
    }).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations[0]?.detail).toContain(
      'inventory-reservation-v1 processed the cancellation, but the saga never recorded the inventory compensation',
    );
    expect(check.violations[0]?.detail).toContain('the void of the card is still being retried');
  });

  it('given a cancelling order with both compensations recorded long past its deadline, when checked, then it is broken', () => {
    const check = given({
      orders: [history(orderId, [...CANCELLING, 'OrderCompensated', 'OrderCompensated'])],
      compensated: ['inventory', 'payment'],
    }).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      `cancelling ${late}, with both compensations recorded, yet never cancelled`,
    );
  });

  it('given an unfinished order placed before deadlines existed, when checked, then it is not judged', () => {
    const check = given({
      orders: [history(orderId, AWAITING_PAYMENT)],
      completeBy: null,
    }).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '0 orders with a deadline; none unfinished past it',
    });
  });

  it('given a late order outside the scope, when checked with an order scope, then it is not judged', () => {
    const check = given({ orders: [history(orderId, AWAITING_PAYMENT)] }).whenChecked({
      orderIds: [orderIdOf(2)],
    });

    expect(check.status).toBe('held');
  });
});
