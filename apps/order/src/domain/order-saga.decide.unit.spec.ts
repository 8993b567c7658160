// One test per row of the saga table (order-saga.decide.ts), then every other
// pairing of input and state, each of which must decide nothing.
import type { OrderEvent } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import type { OrderSagaInput } from './order-saga.decide.js';
import {
  cancellationRequested,
  inventoryCompensated,
  inventoryRejected,
  inventoryReleased,
  inventoryReserved,
  ITEMS,
  LATER,
  orderCancelled,
  orderConfirmed,
  orderPlaced,
  paymentAuthorized,
  paymentCompensated,
  paymentDeclined,
  paymentNothingToVoid,
  paymentRequested,
  paymentUnavailable,
  paymentVoided,
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
  'cancelling, stock released': [
    orderPlaced(orderId),
    paymentRequested(orderId),
    cancellationRequested(orderId, 'timed_out'),
    inventoryCompensated(orderId),
  ],
  'cancelling, card voided': [
    orderPlaced(orderId),
    paymentRequested(orderId),
    cancellationRequested(orderId, 'customer_request'),
    paymentCompensated(orderId, 'voided'),
  ],
  cancelled: [orderPlaced(orderId), orderCancelled(orderId, 'out_of_stock')],
} satisfies Record<string, OrderEvent[]>;

const inputs = {
  InventoryReserved: inventoryReserved(orderId),
  InventoryReservationRejected: inventoryRejected(orderId),
  InventoryReleased: inventoryReleased(orderId),
  PaymentAuthorized: paymentAuthorized(orderId),
  PaymentDeclined: paymentDeclined(orderId),
  PaymentUnavailable: paymentUnavailable(orderId),
  PaymentVoided: paymentVoided(orderId),
  PaymentNothingToVoid: paymentNothingToVoid(orderId),
} satisfies Record<OrderSagaInput['type'], OrderSagaInput>;

/** The pairings the table rows above decide something for; every other one decides []. */
const decisive = new Set([
  'InventoryReserved + awaiting_inventory',
  'InventoryReservationRejected + awaiting_inventory',
  'InventoryReleased + cancelling (customer)',
  'InventoryReleased + cancelling (payment declined)',
  'InventoryReleased + cancelling, card voided',
  'PaymentAuthorized + awaiting_payment',
  'PaymentDeclined + awaiting_payment',
  'PaymentUnavailable + awaiting_payment',
  'PaymentVoided + cancelling (customer)',
  'PaymentVoided + cancelling (payment declined)',
  'PaymentVoided + cancelling, stock released',
  'PaymentNothingToVoid + cancelling (customer)',
  'PaymentNothingToVoid + cancelling (payment declined)',
  'PaymentNothingToVoid + cancelling, stock released',
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

  it('PaymentUnavailable + awaiting_payment -> OrderCancellationRequested(payment_unavailable)', () => {
    given(...histories.awaiting_payment)
      .whenSaga(inputs.PaymentUnavailable, now)
      .then([cancellationRequested(orderId, 'payment_unavailable')]);
  });

  it('InventoryReleased + cancelling -> the stock step recorded; the card is not settled yet', () => {
    given(...histories['cancelling (customer)'])
      .whenSaga(inputs.InventoryReleased, now)
      .then([inventoryCompensated(orderId)]);
  });

  it('PaymentVoided + cancelling, stock not released -> the card step recorded, not yet cancelled', () => {
    given(...histories['cancelling (payment declined)'])
      .whenSaga(inputs.PaymentVoided, now)
      .then([paymentCompensated(orderId, 'voided')]);
  });

  it('PaymentVoided + cancelling, stock released -> OrderCancelled saying what was given back', () => {
    given(...histories['cancelling, stock released'])
      .whenSaga(inputs.PaymentVoided, now)
      .then([
        paymentCompensated(orderId, 'voided'),
        orderCancelled(orderId, 'timed_out', { items: ITEMS, paymentVoided: true }),
      ]);
  });

  it('PaymentNothingToVoid + cancelling, stock released -> OrderCancelled with no card voided', () => {
    given(...histories['cancelling, stock released'])
      .whenSaga(inputs.PaymentNothingToVoid, now)
      .then([
        paymentCompensated(orderId, 'nothing_held'),
        orderCancelled(orderId, 'timed_out', { items: ITEMS, paymentVoided: false }),
      ]);
  });

  it('InventoryReleased + cancelling, card voided -> OrderCancelled, whichever step came last', () => {
    given(...histories['cancelling, card voided'])
      .whenSaga(inputs.InventoryReleased, now)
      .then([
        inventoryCompensated(orderId),
        orderCancelled(orderId, 'customer_request', { items: ITEMS, paymentVoided: true }),
      ]);
  });

  it('a step recorded once is not recorded again: a redelivered PaymentVoided decides nothing', () => {
    given(...histories['cancelling, card voided'])
      .whenSaga(inputs.PaymentVoided, now)
      .then([]);
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
