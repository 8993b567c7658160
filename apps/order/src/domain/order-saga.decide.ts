// The order saga as a workflow decider: an event from the inventory or the
// payment service, and the order's current state, in; the order events to
// append out, or [] when there is nothing to do. Pure, so a redelivery of the
// same input to the state it already moved on decides [] and changes nothing.
//
// | input                        | order state        | output                                        |
// | ---------------------------- | ------------------ | --------------------------------------------- |
// | InventoryReserved            | awaiting_inventory | OrderPaymentRequested                         |
// | InventoryReservationRejected | awaiting_inventory | OrderCancelled(out_of_stock)                  |
// | PaymentAuthorized            | awaiting_payment   | OrderConfirmed                                |
// | PaymentDeclined              | awaiting_payment   | OrderCancellationRequested(payment_declined)  |
// | InventoryReleased            | cancelling         | OrderCancelled(reason of the request)         |
// | anything else (late, duplicate)                   | []                                            |
import {
  paymentAttemptId,
  type CancellationReason,
  type InventoryEvent,
  type KnownEvent,
  type OrderEvent,
  type PaymentEvent,
} from '@effectively-once/contracts';
import type { Order, OrderState } from './order.state.js';

type InputOf<Type extends KnownEvent['type']> = Extract<KnownEvent, { type: Type }>;

/** The events the saga reacts to. PaymentVoided only confirms a compensation the saga does not wait for. */
export type OrderSagaInput = InventoryEvent | Exclude<PaymentEvent, InputOf<'PaymentVoided'>>;

const SAGA_INPUT_TYPES: ReadonlySet<string> = new Set<OrderSagaInput['type']>([
  'InventoryReserved',
  'InventoryReservationRejected',
  'InventoryReleased',
  'PaymentAuthorized',
  'PaymentDeclined',
]);

/** True for the events `decideOrderSaga` takes; every other event is not the saga's business. */
export function isOrderSagaInput(event: KnownEvent): event is OrderSagaInput {
  return SAGA_INPUT_TYPES.has(event.type);
}

const nothing: readonly OrderEvent[] = [];

// Step 1, reserve the stock. Success asks for the payment; a rejection
// cancels at once, because nothing was reserved and nothing needs undoing.
function onInventoryReserved(state: OrderState, now: Date): readonly OrderEvent[] {
  // While cancelling, the release the cancellation asked for will follow.
  if (state.status !== 'awaiting_inventory') return nothing;
  return [
    {
      type: 'OrderPaymentRequested',
      data: {
        orderId: state.orderId,
        paymentAttemptId: paymentAttemptId(state.orderId),
        paymentToken: state.paymentToken,
        amountCents: state.amountCents,
        requestedAt: now.toISOString(),
      },
    },
  ];
}

function onInventoryReservationRejected(state: OrderState, now: Date): readonly OrderEvent[] {
  if (state.status !== 'awaiting_inventory') return nothing;
  return [cancelled(state, 'out_of_stock', now)];
}

// Step 1's compensation, released stock: it follows an OrderCancellationRequested
// (a declined payment or the customer), and ends the order for that reason.
function onInventoryReleased(state: OrderState, now: Date): readonly OrderEvent[] {
  if (state.status !== 'cancelling') return nothing;
  return [cancelled(state, state.cancellationReason, now)];
}

// Step 2, authorize the payment. Success confirms the order; a decline starts
// the compensation of step 1: the cancellation request makes inventory release.
function onPaymentAuthorized(
  input: InputOf<'PaymentAuthorized'>,
  state: OrderState,
  now: Date,
): readonly OrderEvent[] {
  // While cancelling, the payment service voids this authorization itself.
  if (state.status !== 'awaiting_payment') return nothing;
  return [
    {
      type: 'OrderConfirmed',
      data: {
        orderId: state.orderId,
        customerEmail: state.customerEmail,
        authorizationId: input.data.authorizationId,
        confirmedAt: now.toISOString(),
      },
    },
  ];
}

function onPaymentDeclined(state: OrderState, now: Date): readonly OrderEvent[] {
  if (state.status !== 'awaiting_payment') return nothing;
  return [
    {
      type: 'OrderCancellationRequested',
      data: { orderId: state.orderId, reason: 'payment_declined', requestedAt: now.toISOString() },
    },
  ];
}

function cancelled(order: Order, reason: CancellationReason, now: Date): OrderEvent {
  return {
    type: 'OrderCancelled',
    data: {
      orderId: order.orderId,
      customerEmail: order.customerEmail,
      reason,
      cancelledAt: now.toISOString(),
    },
  };
}

/**
 * Decides the saga's next order events. `now` stamps them; it is passed in so
 * the decider stays pure.
 *
 * @example
 * const events = decideOrderSaga(inventoryReserved, loaded.state, clock());
 * if (events.length > 0) await appendOrderEvents(store, { ... });
 */
export function decideOrderSaga(
  input: OrderSagaInput,
  state: OrderState,
  now: Date,
): readonly OrderEvent[] {
  switch (input.type) {
    case 'InventoryReserved':
      return onInventoryReserved(state, now);
    case 'InventoryReservationRejected':
      return onInventoryReservationRejected(state, now);
    case 'InventoryReleased':
      return onInventoryReleased(state, now);
    case 'PaymentAuthorized':
      return onPaymentAuthorized(input, state, now);
    case 'PaymentDeclined':
      return onPaymentDeclined(state, now);
    default: {
      const unexpected: never = input;
      throw new Error(`Unknown saga input ${JSON.stringify(unexpected)}`);
    }
  }
}
