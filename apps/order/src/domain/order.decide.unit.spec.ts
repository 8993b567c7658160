import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import type { OrderDeadlineName } from '@effectively-once/contracts';
import {
  cancellationRequested,
  CUSTOMER_EMAIL,
  DEADLINES,
  inventoryCompensated,
  ITEMS,
  LATER,
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

const placeOrder = {
  type: 'PlaceOrder',
  data: {
    orderId,
    customerEmail: CUSTOMER_EMAIL,
    items: ITEMS,
    paymentToken: 'tok_approve',
    deadlines: DEADLINES,
    now: PLACED_AT,
  },
} as const;
const cancelOrder = { type: 'CancelOrder', data: { orderId, now: LATER } } as const;
const customerCancellation = cancellationRequested(orderId, 'customer_request');

describe('PlaceOrder', () => {
  it('places a new order, priced at 1 000 cents a unit, with the deadlines it was given', () => {
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

const DUE = {
  inventory: new Date(DEADLINES.inventoryBy),
  payment: new Date(DEADLINES.paymentBy),
  complete: new Date(DEADLINES.completeBy),
} as const;
const expire = (deadline: OrderDeadlineName, now: Date = DUE[deadline]) =>
  ({ type: 'ExpireOrder', data: { orderId, deadline, now } }) as const;
const timedOut = (deadline: OrderDeadlineName) =>
  cancellationRequested(orderId, 'timed_out', DUE[deadline]);
const justBefore = (deadline: OrderDeadlineName) => new Date(DUE[deadline].getTime() - 1);

describe('ExpireOrder: a deadline that passes before its step cancels the order', () => {
  it('inventory, stock not yet reserved: requests the cancellation, timed_out', () => {
    given(orderPlaced(orderId))
      .when(expire('inventory'))
      .then([timedOut('inventory')]);
  });

  it('payment, stock not yet reserved: requests the cancellation, timed_out', () => {
    given(orderPlaced(orderId))
      .when(expire('payment'))
      .then([timedOut('payment')]);
  });

  it('payment, card not yet authorized: requests the cancellation, timed_out', () => {
    given(orderPlaced(orderId), paymentRequested(orderId))
      .when(expire('payment'))
      .then([timedOut('payment')]);
  });

  it('complete, stock not yet reserved: requests the cancellation, timed_out', () => {
    given(orderPlaced(orderId))
      .when(expire('complete'))
      .then([timedOut('complete')]);
  });

  it('complete, card not yet authorized: requests the cancellation, timed_out', () => {
    given(orderPlaced(orderId), paymentRequested(orderId))
      .when(expire('complete'))
      .then([timedOut('complete')]);
  });

  it('fires at the very millisecond of its deadline', () => {
    given(orderPlaced(orderId))
      .when(expire('inventory', DUE.inventory))
      .then([timedOut('inventory')]);
  });
});

describe('ExpireOrder: a timer never fires early', () => {
  for (const deadline of ['inventory', 'payment', 'complete'] as const) {
    it(`${deadline}, a millisecond before its time: refused NOT_DUE`, () => {
      given(orderPlaced(orderId))
        .when(expire(deadline, justBefore(deadline)))
        .thenRefused('NOT_DUE');
    });
  }
});

describe('ExpireOrder: no effect once the step it guards is done, or when fired twice', () => {
  it('inventory, stock reserved (awaiting payment): nothing', () => {
    given(orderPlaced(orderId), paymentRequested(orderId)).when(expire('inventory')).then([]);
  });

  it('inventory, order confirmed: nothing', () => {
    given(orderPlaced(orderId), paymentRequested(orderId), orderConfirmed(orderId))
      .when(expire('inventory'))
      .then([]);
  });

  it('payment, order confirmed: nothing', () => {
    given(orderPlaced(orderId), paymentRequested(orderId), orderConfirmed(orderId))
      .when(expire('payment'))
      .then([]);
  });

  it('complete, order confirmed: nothing', () => {
    given(orderPlaced(orderId), paymentRequested(orderId), orderConfirmed(orderId))
      .when(expire('complete'))
      .then([]);
  });

  it('complete, order still cancelling (a compensation is retrying): not cancelled again', () => {
    given(
      orderPlaced(orderId),
      paymentRequested(orderId),
      cancellationRequested(orderId, 'payment_declined'),
      inventoryCompensated(orderId),
    )
      .when(expire('complete'))
      .then([]);
  });

  it('complete, order cancelled: nothing', () => {
    given(
      orderPlaced(orderId),
      cancellationRequested(orderId, 'customer_request'),
      inventoryCompensated(orderId),
      paymentCompensated(orderId, 'nothing_held'),
      orderCancelled(orderId, 'customer_request'),
    )
      .when(expire('complete'))
      .then([]);
  });

  it('inventory, fired a second time after it cancelled the order: nothing', () => {
    given(orderPlaced(orderId), timedOut('inventory')).when(expire('inventory')).then([]);
  });

  it('payment, after the inventory deadline cancelled the order: nothing', () => {
    given(orderPlaced(orderId), timedOut('inventory')).when(expire('payment')).then([]);
  });

  it('an order that was never appended (empty stream): nothing, the timer is done', () => {
    given().when(expire('inventory')).then([]);
  });

  it('an order placed before the saga had deadlines: nothing', () => {
    given(orderPlacedWithoutDeadlines(orderId)).when(expire('complete', LATER)).then([]);
  });
});
