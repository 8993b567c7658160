// One test per row of the saga table (order-saga.decide.ts), then every other
// pairing of input and state, each of which must decide nothing.
import type { OrderEvent } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import type { OrderSagaInput } from './order-saga.decide.js';
import {
  cancellationRequested,
  inventoryRejected,
  inventoryReleased,
  inventoryReserved,
  LATER,
  orderCancelled,
  orderConfirmed,
  orderPlaced,
  paymentAuthorized,
  paymentDeclined,
  paymentRequested,
} from './testing/order.fixtures.js';
import { given } from './testing/order.specification.js';

const orderId = randomUUID();
const now = LATER;

const histories = {
  not_placed: [],
  awaiting_inventory: [orderPlaced(orderId)],
  awaiting_payment: [orderPlaced(orderId), paymentRequested(orderId)],
  confirmed: [orderPlaced(orderId), paymentRequested(orderId), orderConfirmed(orderId)],
  'cancelling (customer)': [
    orderPlaced(orderId),
    cancellationRequested(orderId, 'customer_request'),
  ],
  'cancelling (payment declined)': [
    orderPlaced(orderId),
    paymentRequested(orderId),
    cancellationRequested(orderId, 'payment_declined'),
  ],
  cancelled: [orderPlaced(orderId), orderCancelled(orderId, 'out_of_stock')],
} satisfies Record<string, OrderEvent[]>;

const inputs = {
  InventoryReserved: inventoryReserved(orderId),
  InventoryReservationRejected: inventoryRejected(orderId),
  InventoryReleased: inventoryReleased(orderId),
  PaymentAuthorized: paymentAuthorized(orderId),
  PaymentDeclined: paymentDeclined(orderId),
} satisfies Record<OrderSagaInput['type'], OrderSagaInput>;

/** The pairings the table rows above decide something for; every other one decides []. */
const decisive = new Set([
  'InventoryReserved + awaiting_inventory',
  'InventoryReservationRejected + awaiting_inventory',
  'InventoryReleased + cancelling (customer)',
  'InventoryReleased + cancelling (payment declined)',
  'PaymentAuthorized + awaiting_payment',
  'PaymentDeclined + awaiting_payment',
]);

describe('the order saga table', () => {
  it('InventoryReserved + awaiting_inventory -> OrderPaymentRequested for attempt 1', () => {
    given(...histories.awaiting_inventory)
      .whenSaga(inputs.InventoryReserved, now)
      .then([paymentRequested(orderId)]);
  });

  it('InventoryReservationRejected + awaiting_inventory -> OrderCancelled(out_of_stock)', () => {
    given(...histories.awaiting_inventory)
      .whenSaga(inputs.InventoryReservationRejected, now)
      .then([orderCancelled(orderId, 'out_of_stock')]);
  });

  it('PaymentAuthorized + awaiting_payment -> OrderConfirmed with the authorization id', () => {
    given(...histories.awaiting_payment)
      .whenSaga(inputs.PaymentAuthorized, now)
      .then([orderConfirmed(orderId)]);
  });

  it('PaymentDeclined + awaiting_payment -> OrderCancellationRequested(payment_declined)', () => {
    given(...histories.awaiting_payment)
      .whenSaga(inputs.PaymentDeclined, now)
      .then([cancellationRequested(orderId, 'payment_declined')]);
  });

  it('InventoryReleased + cancelling -> OrderCancelled, for the customer request', () => {
    given(...histories['cancelling (customer)'])
      .whenSaga(inputs.InventoryReleased, now)
      .then([orderCancelled(orderId, 'customer_request')]);
  });

  it('InventoryReleased + cancelling -> OrderCancelled, for the declined payment', () => {
    given(...histories['cancelling (payment declined)'])
      .whenSaga(inputs.InventoryReleased, now)
      .then([orderCancelled(orderId, 'payment_declined')]);
  });
});

describe('anything else (late, duplicate or out of order) decides nothing', () => {
  const pairings = Object.entries(inputs).flatMap(([type, input]) =>
    Object.entries(histories)
      .filter(([situation]) => !decisive.has(`${type} + ${situation}`))
      .map(([situation, history]) => ({ type, situation, input, history })),
  );

  it.each(pairings)('$type + $situation -> []', ({ input, history }) => {
    given(...history)
      .whenSaga(input, now)
      .then([]);
  });
});
