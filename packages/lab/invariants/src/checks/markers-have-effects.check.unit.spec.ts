import { CONSUMERS } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { Marker, StoredMessage } from '../facts/facts.types.js';
import {
  contextOf,
  emptyFacts,
  message,
  messageIdOf,
  messagesById,
  orderIdOf,
} from '../testing/facts.fixtures.js';
import { markersHaveEffects, type MarkerFacts } from './markers-have-effects.check.js';

const orderId = orderIdOf(1);
const placed = message({ id: messageIdOf(1), type: 'OrderPlaced', orderId });
const paymentRequested = message({ id: messageIdOf(2), type: 'OrderPaymentRequested', orderId });
const cancellationRequested = message({
  id: messageIdOf(3),
  type: 'OrderCancellationRequested',
  orderId,
});
const confirmed = message({ id: messageIdOf(4), type: 'OrderConfirmed', orderId });

const markerOf = (
  consumer: string,
  of: StoredMessage | string,
  database: Marker['database'] = 'inventory',
): Marker => ({ database, consumer, messageId: typeof of === 'string' ? of : of.id });

function given(facts: Partial<MarkerFacts>, scope: AuditScope = {}) {
  const all: MarkerFacts = {
    ...emptyFacts(),
    messages: messagesById(placed, paymentRequested, cancellationRequested, confirmed),
    ...facts,
  };
  return { whenChecked: () => markersHaveEffects(all, contextOf(scope)) };
}

describe('markers-have-effects', () => {
  it('given markers whose effects are all there, when checked, then it holds', () => {
    const check = given({
      markers: [
        markerOf(CONSUMERS.inventoryReservation, placed),
        markerOf(CONSUMERS.paymentAuthorization, paymentRequested, 'payment'),
        markerOf(CONSUMERS.notificationEmail, confirmed, 'notification'),
      ],
      inventoryOrders: new Map([[orderId, 'consumed']]),
      paymentAttempts: [
        {
          attemptId: `${orderId}:1`,
          orderId,
          status: 'authorized',
          authorizationId: 'auth-1',
          amountCents: 2_000,
          updatedAt: new Date(),
        },
      ],
      notifications: [{ orderId, kind: 'order_confirmed' }],
    }).whenChecked();

    expect(check).toMatchObject({ status: 'held', violations: [], pending: [] });
    expect(check.summary).toBe('3 markers checked; each has its effect');
  });

  it('given an inventory-reservation-v1 marker of OrderPlaced and no inventory_order row, when checked, then it is broken', () => {
    const check = given({
      markers: [markerOf(CONSUMERS.inventoryReservation, placed)],
    }).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toEqual([
      {
        subject: `inventory-reservation-v1 marker of message ${placed.id}`,
        detail: `OrderPlaced marked as processed, but no inventory_order row for order ${orderId}`,
      },
    ]);
  });

  it('given a confirmation marked as processed while the order is still reserved, when checked, then it is broken', () => {
    const check = given({
      markers: [
        markerOf(CONSUMERS.inventoryReservation, placed),
        markerOf(CONSUMERS.inventoryReservation, confirmed),
      ],
      inventoryOrders: new Map([[orderId, 'reserved']]),
    }).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toEqual([
      {
        subject: `inventory-reservation-v1 marker of message ${confirmed.id}`,
        detail: `OrderConfirmed marked as processed, but inventory_order for order ${orderId} is reserved after OrderConfirmed; it should be consumed`,
      },
    ]);
  });

  it('given a processed cancellation and the order released, when checked, then it holds', () => {
    const check = given({
      markers: [markerOf(CONSUMERS.inventoryReservation, cancellationRequested)],
      inventoryOrders: new Map([[orderId, 'released']]),
    }).whenChecked();

    expect(check.status).toBe('held');
  });

  it('given a marker of a message the event store does not have, when checked, then it is broken whatever the scope', () => {
    const stray = messageIdOf(99);
    const check = given(
      { markers: [markerOf(CONSUMERS.inventoryReservation, stray)] },
      { orderIds: [orderIdOf(2)] },
    ).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations[0]?.subject).toBe(
      `inventory-reservation-v1 marker of message ${stray}`,
    );
    expect(check.violations[0]?.detail).toContain('the event store has no such message');
  });

  it('given markers under names no consumer has, when checked, then it is broken once per database and name', () => {
    const check = given({
      markers: [
        markerOf('*', placed),
        markerOf('*', confirmed),
        markerOf('inventory-reservation-v1@host-42', placed),
      ],
      inventoryOrders: new Map([[orderId, 'consumed']]),
    }).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toEqual([
      {
        subject: 'inventory database: consumer "*"',
        detail: expect.stringContaining('2 markers under an unknown consumer name') as unknown,
      },
      {
        subject: 'inventory database: consumer "inventory-reservation-v1@host-42"',
        detail: expect.stringContaining('1 marker under an unknown consumer name') as unknown,
      },
    ]);
  });

  it('given a payment-authorization-v1 marker of OrderPaymentRequested and the attempt still pending, when checked, then it is broken', () => {
    const check = given({
      markers: [markerOf(CONSUMERS.paymentAuthorization, paymentRequested, 'payment')],
      paymentAttempts: [
        {
          attemptId: `${orderId}:1`,
          orderId,
          status: 'pending',
          authorizationId: null,
          amountCents: 2_000,
          updatedAt: new Date(),
        },
      ],
    }).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      `OrderPaymentRequested marked as processed, but payment attempt ${orderId}:1 is still pending`,
    );
  });

  it('given a payment request skipped because the cancellation came first, when checked, then it holds without an attempt', () => {
    const check = given({
      markers: [
        markerOf(CONSUMERS.paymentAuthorization, cancellationRequested, 'payment'),
        markerOf(CONSUMERS.paymentAuthorization, paymentRequested, 'payment'),
      ],
      paymentCancellations: new Set([orderId]),
    }).whenChecked();

    expect(check.status).toBe('held');
  });

  it('given a processed cancellation while the attempt is still authorized, when checked, then it is broken', () => {
    const check = given({
      markers: [markerOf(CONSUMERS.paymentAuthorization, cancellationRequested, 'payment')],
      paymentCancellations: new Set([orderId]),
      paymentAttempts: [
        {
          attemptId: `${orderId}:1`,
          orderId,
          status: 'authorized',
          authorizationId: 'auth-1',
          amountCents: 2_000,
          updatedAt: new Date(),
        },
      ],
    }).whenChecked();

    expect(check.violations[0]?.detail).toContain('is still authorized after the cancellation');
  });

  it('given payment-authorization-v1 markers of a request and a confirmation and the attempt captured, when checked, then it holds', () => {
    const check = given({
      markers: [
        markerOf(CONSUMERS.paymentAuthorization, paymentRequested, 'payment'),
        markerOf(CONSUMERS.paymentAuthorization, confirmed, 'payment'),
      ],
      paymentAttempts: [
        {
          attemptId: `${orderId}:1`,
          orderId,
          status: 'captured',
          authorizationId: 'auth-1',
          amountCents: 2_000,
          updatedAt: new Date(),
        },
      ],
    }).whenChecked();

    expect(check).toMatchObject({ status: 'held', violations: [] });
  });

  it('given a payment-authorization-v1 marker of OrderConfirmed and the attempt still authorized, when checked, then it is broken: the capture was lost', () => {
    const check = given({
      markers: [markerOf(CONSUMERS.paymentAuthorization, confirmed, 'payment')],
      paymentAttempts: [
        {
          attemptId: `${orderId}:1`,
          orderId,
          status: 'authorized',
          authorizationId: 'auth-1',
          amountCents: 2_000,
          updatedAt: new Date(),
        },
      ],
    }).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `payment-authorization-v1 marker of message ${confirmed.id}`,
        detail: `OrderConfirmed marked as processed, but payment attempt ${orderId}:1 is authorized, not captured`,
      },
    ]);
  });

  it('given a processed cancellation whose attempt was abandoned, when checked, then it holds: nothing is held', () => {
    const check = given({
      markers: [
        markerOf(CONSUMERS.paymentAuthorization, paymentRequested, 'payment'),
        markerOf(CONSUMERS.paymentAuthorization, cancellationRequested, 'payment'),
      ],
      paymentCancellations: new Set([orderId]),
      paymentAttempts: [
        {
          attemptId: `${orderId}:1`,
          orderId,
          status: 'abandoned',
          authorizationId: null,
          amountCents: 2_000,
          updatedAt: new Date(),
        },
      ],
    }).whenChecked();

    expect(check.status).toBe('held');
  });

  it('given a notification-email-v1 marker of OrderConfirmed and no notification row, when checked, then it is broken', () => {
    const check = given({
      markers: [markerOf(CONSUMERS.notificationEmail, confirmed, 'notification')],
      notifications: [{ orderId, kind: 'order_cancelled' }],
    }).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      `OrderConfirmed marked as processed, but no order_confirmed notification recorded as sent for order ${orderId}`,
    );
  });

  it('given a broken marker of an order outside the scope, when checked, then it is not judged', () => {
    const check = given(
      { markers: [markerOf(CONSUMERS.inventoryReservation, placed), markerOf('*', placed)] },
      { orderIds: [orderIdOf(2)] },
    ).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '0 markers checked; each has its effect',
    });
  });
});
