import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import {
  cancellationRequested,
  CUSTOMER_EMAIL,
  ITEMS,
  LATER,
  orderCancelled,
  orderConfirmed,
  orderPlaced,
  paymentRequested,
  PLACED_AT,
} from './testing/order.fixtures.js';
import { given } from './testing/order.specification.js';

const orderId = randomUUID();

const placeOrder = {
  type: 'PlaceOrder',
  data: {
    orderId,
    customerEmail: CUSTOMER_EMAIL,
    items: ITEMS,
    paymentToken: 'tok_approve',
    now: PLACED_AT,
  },
} as const;
const cancelOrder = { type: 'CancelOrder', data: { orderId, now: LATER } } as const;
const customerCancellation = cancellationRequested(orderId, 'customer_request');

describe('PlaceOrder', () => {
  it('places a new order, priced at 1 000 cents a unit', () => {
    given()
      .when(placeOrder)
      .then([orderPlaced(orderId)]);
  });

  it('is refused for an order that was placed already', () => {
    given(orderPlaced(orderId)).when(placeOrder).thenRefused('ORDER_ALREADY_PLACED');
  });
});

describe('CancelOrder', () => {
  it('is refused for an order that does not exist', () => {
    given().when(cancelOrder).thenRefused('ORDER_NOT_FOUND');
  });

  it('requests the cancellation while the stock is being reserved', () => {
    given(orderPlaced(orderId)).when(cancelOrder).then([customerCancellation]);
  });

  it('requests the cancellation while the payment is being authorized', () => {
    given(orderPlaced(orderId), paymentRequested(orderId))
      .when(cancelOrder)
      .then([customerCancellation]);
  });

  it('is refused once the order is confirmed', () => {
    given(orderPlaced(orderId), paymentRequested(orderId), orderConfirmed(orderId))
      .when(cancelOrder)
      .thenRefused('ORDER_ALREADY_CONFIRMED');
  });

  it('changes nothing while a cancellation is under way', () => {
    given(
      orderPlaced(orderId),
      paymentRequested(orderId),
      cancellationRequested(orderId, 'payment_declined'),
    )
      .when(cancelOrder)
      .then([]);
  });

  it('changes nothing once the order is cancelled', () => {
    given(orderPlaced(orderId), orderCancelled(orderId, 'out_of_stock')).when(cancelOrder).then([]);
  });
});
