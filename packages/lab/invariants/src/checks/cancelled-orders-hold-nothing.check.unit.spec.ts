import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { ProviderAuthorization, ReservedLine } from '../facts/facts.types.js';
import {
  contextOf,
  history,
  JUST_NOW,
  LONG_AGO,
  ledgerEntry,
  orderIdOf,
  ordersOf,
} from '../testing/facts.fixtures.js';
import {
  cancelledOrdersHoldNothing,
  type HoldingsFacts,
} from './cancelled-orders-hold-nothing.check.js';

const orderId = orderIdOf(1);
const CANCELLED = [
  'OrderPlaced',
  'OrderPaymentRequested',
  'OrderCancellationRequested',
  'OrderCompensated',
  'OrderCompensated',
  'OrderCancelled',
];
const cancelledLongAgo = history(orderId, CANCELLED);
const confirmed = history(orderIdOf(2), ['OrderPlaced', 'OrderPaymentRequested', 'OrderConfirmed']);

function given(facts: Partial<HoldingsFacts> & { orders: HoldingsFacts['orders'] }) {
  const all: HoldingsFacts = {
    authorizations: [],
    reservedLines: [],
    inventoryOrders: new Map(),
    ...facts,
  };
  return {
    whenChecked: (scope: AuditScope = {}) => cancelledOrdersHoldNothing(all, contextOf(scope)),
  };
}

const voided = (n: number): ProviderAuthorization =>
  ledgerEntry(n, { status: 'voided', voidedAt: LONG_AGO });
const line = (sku: string, quantity: number): ReservedLine => ({ orderId, sku, quantity });

describe('cancelled-orders-hold-nothing', () => {
  it('given a cancelled order whose authorization was voided and stock released, and a confirmed order holding its capture, when checked, then it holds', () => {
    const check = given({
      orders: ordersOf(cancelledLongAgo, confirmed),
      authorizations: [voided(1), ledgerEntry(2, { status: 'captured', capturedAt: LONG_AGO })],
      inventoryOrders: new Map([
        [orderId, 'released'],
        [orderIdOf(2), 'consumed'],
      ]),
    }).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '1 cancelled order; none holds stock or money',
      violations: [],
      pending: [],
    });
  });

  it('given a cancelled order whose authorization is still live at the processor, when checked, then it is broken', () => {
    const check = given({
      orders: ordersOf(cancelledLongAgo),
      authorizations: [ledgerEntry(1)],
    }).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toEqual([
      {
        subject: `order ${orderId}`,
        detail: `cancelled 4.9 min ago, yet authorization auth-1 is still live at the card processor (key authorize:${orderId}:1)`,
      },
    ]);
  });

  it('given a cancelled order whose stock is still reserved, when checked, then it is broken, naming each line', () => {
    const check = given({
      orders: ordersOf(cancelledLongAgo),
      reservedLines: [
        line('SKU-MUG', 2),
        line('SKU-TEA', 1),
        { orderId: orderIdOf(2), sku: 'SKU-MUG', quantity: 5 },
      ],
      inventoryOrders: new Map([[orderId, 'reserved']]),
    }).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${orderId}`,
        detail:
          'cancelled 4.9 min ago, yet 2 units of SKU-MUG still reserved; 1 unit of SKU-TEA still reserved; inventory still records the order as reserved',
      },
    ]);
  });

  it('given a cancelled order whose authorization was captured, when checked, then it is broken: money taken for a cancelled order', () => {
    const check = given({
      orders: ordersOf(cancelledLongAgo),
      authorizations: [ledgerEntry(1, { status: 'captured', capturedAt: LONG_AGO })],
    }).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      'cancelled 4.9 min ago, yet authorization auth-1 was captured: the money was taken',
    );
  });

  it('given an order cancelled a second ago that still seems to hold stock, when checked, then it is pending: the tables were read before the store', () => {
    const justCancelled = history(orderId, CANCELLED, new Date(JUST_NOW.getTime() - 5_000));
    const check = given({
      orders: ordersOf(justCancelled),
      reservedLines: [line('SKU-MUG', 1)],
    }).whenChecked();

    expect(check.status).toBe('pending');
    expect(check.pending).toEqual([
      `order ${orderId}: cancelled 1.0 s ago, yet 1 unit of SKU-MUG still reserved`,
    ]);
  });

  it("given a confirmed or unfinished order that holds stock and an authorization, when checked, then it is not this check's business", () => {
    const unfinished = history(orderIdOf(3), ['OrderPlaced', 'OrderPaymentRequested']);
    const check = given({
      orders: ordersOf(confirmed, unfinished),
      authorizations: [ledgerEntry(2), ledgerEntry(3)],
      reservedLines: [{ orderId: orderIdOf(3), sku: 'SKU-MUG', quantity: 1 }],
    }).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '0 cancelled orders; none holds stock or money',
    });
  });

  it('given a cancelled order outside the scope that holds stock, when checked with an order scope, then it is not judged', () => {
    const check = given({
      orders: ordersOf(cancelledLongAgo),
      reservedLines: [line('SKU-MUG', 1)],
    }).whenChecked({ orderIds: [orderIdOf(2)] });

    expect(check.status).toBe('held');
  });
});
