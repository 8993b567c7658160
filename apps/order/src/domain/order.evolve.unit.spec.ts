import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { evolveAll } from './order.evolve.js';
import {
  AMOUNT_CENTS,
  cancellationRequested,
  CUSTOMER_EMAIL,
  DEADLINES,
  inventoryCompensated,
  ITEMS,
  orderCancelled,
  orderConfirmed,
  orderPlaced,
  orderPlacedWithoutDeadlines,
  paymentCompensated,
  paymentRequested,
  PLACED_AT,
} from './testing/order.fixtures.js';
import { given } from './testing/order.specification.js';

const orderId = randomUUID();

describe('evolve: the status transitions of an order', () => {
  it('starts as not placed', () => {
    expect(evolveAll([])).toEqual({ status: 'not_placed' });
  });

  it('OrderPlaced: not placed -> awaiting_inventory, with the placement details', () => {
    given().whenEvent(orderPlaced(orderId)).thenState({
      status: 'awaiting_inventory',
      orderId,
      customerEmail: CUSTOMER_EMAIL,
      items: ITEMS,
      paymentToken: 'tok_approve',
      amountCents: AMOUNT_CENTS,
      placedAt: PLACED_AT.toISOString(),
      deadlines: DEADLINES,
    });
  });

  it('OrderPlaced stored before deadlines existed: awaiting_inventory, deadlines null', () => {
    given()
      .whenEvent(orderPlacedWithoutDeadlines(orderId))
      .thenState({ status: 'awaiting_inventory', deadlines: null });
  });

  it('OrderPaymentRequested: awaiting_inventory -> awaiting_payment, with the attempt id', () => {
    given(orderPlaced(orderId))
      .whenEvent(paymentRequested(orderId))
      .thenState({ status: 'awaiting_payment', paymentAttemptId: `${orderId}:1` });
  });

  it('OrderConfirmed: awaiting_payment -> confirmed, with the authorization id', () => {
    given(orderPlaced(orderId), paymentRequested(orderId))
      .whenEvent(orderConfirmed(orderId))
      .thenState({ status: 'confirmed', authorizationId: 'auth-1', amountCents: AMOUNT_CENTS });
  });

  it('OrderCancellationRequested: awaiting_inventory -> cancelling (customer)', () => {
    given(orderPlaced(orderId))
      .whenEvent(cancellationRequested(orderId, 'customer_request'))
      .thenState({ status: 'cancelling', cancellationReason: 'customer_request' });
  });

  it('OrderCancellationRequested: awaiting_payment -> cancelling (payment declined)', () => {
    given(orderPlaced(orderId), paymentRequested(orderId))
      .whenEvent(cancellationRequested(orderId, 'payment_declined'))
      .thenState({ status: 'cancelling', cancellationReason: 'payment_declined' });
  });

  it('OrderCompensated: cancelling keeps each step it is told about, stock then card', () => {
    given(orderPlaced(orderId), cancellationRequested(orderId, 'timed_out'))
      .whenEvent(inventoryCompensated(orderId))
      .thenState({
        status: 'cancelling',
        compensations: { inventory: { items: ITEMS }, payment: undefined },
      });
    given(
      orderPlaced(orderId),
      cancellationRequested(orderId, 'timed_out'),
      inventoryCompensated(orderId),
    )
      .whenEvent(paymentCompensated(orderId, 'nothing_held'))
      .thenState({
        status: 'cancelling',
        compensations: { inventory: { items: ITEMS }, payment: 'nothing_held' },
      });
  });

  it('OrderCancelled: awaiting_inventory -> cancelled (out of stock)', () => {
    given(orderPlaced(orderId))
      .whenEvent(orderCancelled(orderId, 'out_of_stock'))
      .thenState({ status: 'cancelled', cancellationReason: 'out_of_stock' });
  });

  it('OrderCancelled: cancelling -> cancelled, keeping the placement details', () => {
    given(orderPlaced(orderId), cancellationRequested(orderId, 'customer_request'))
      .whenEvent(orderCancelled(orderId, 'customer_request'))
      .thenState({
        status: 'cancelled',
        cancellationReason: 'customer_request',
        customerEmail: CUSTOMER_EMAIL,
        items: ITEMS,
      });
  });

  it('a second OrderPlaced changes nothing: the first placement wins', () => {
    given(orderPlaced(orderId), paymentRequested(orderId))
      .whenEvent({
        ...orderPlaced(orderId),
        data: { ...orderPlaced(orderId).data, amountCents: 1 },
      })
      .thenState({ status: 'awaiting_payment', amountCents: AMOUNT_CENTS });
  });

  it('an event before OrderPlaced changes nothing: there are no details to keep', () => {
    given().whenEvent(paymentRequested(orderId)).thenState({ status: 'not_placed' });
  });
});
