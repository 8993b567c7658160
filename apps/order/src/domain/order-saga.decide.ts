// The order saga as a workflow decider: an event from the inventory or the
// payment service, and the order's current state, in; the order events to
// append out, or [] when there is nothing to do. Pure, so a redelivery of the
// same input to the state it already moved on decides [] and changes nothing.
//
// | input                        | order state        | output                                          |
// | ---------------------------- | ------------------ | ----------------------------------------------- |
// | InventoryReserved            | awaiting_inventory | OrderPaymentRequested                           |
// | InventoryReservationRejected | awaiting_inventory | OrderCancelled(out_of_stock)                    |
// | PaymentAuthorized            | awaiting_payment   | OrderConfirmed                                  |
// | PaymentDeclined              | awaiting_payment   | OrderCancellationRequested(payment_declined)    |
// | PaymentUnavailable           | awaiting_payment   | OrderCancellationRequested(payment_unavailable) |
// | InventoryReleased            | cancelling, stock  | OrderCompensated(inventory)                     |
// |                              | not yet released   |   + OrderCancelled if payment is settled too    |
// | PaymentVoided,               | cancelling, card   | OrderCompensated(payment)                       |
// | PaymentNothingToVoid         | not yet settled    |   + OrderCancelled if stock is released too     |
// | anything else (late, duplicate)                   | []                                              |
//
// A cancellation ends only when both compensations are recorded, in whichever
// order they arrive: "cancelled" means nothing is held any more.
import {
  isEventOf,
  paymentAttemptId,
  type CancellationReason,
  type EventOfTypes,
  type KnownEvent,
  type KnownEventType,
  type OrderEvent,
  type OrderLine,
  type ReleasedHoldings,
} from '@effectively-once/contracts';
import type { Order, OrderState } from './order.state.js';

/**
 * The events the saga reacts to, the one list: the subscription group's
 * filter, the `ignored` outcome and the docs' matrix are derived from it. A
 * capture follows a confirmation; the saga has nothing left to do.
 */
export const ORDER_SAGA_EVENTS = [
  'InventoryReserved',
  'InventoryReservationRejected',
  'InventoryReleased',
  'PaymentAuthorized',
  'PaymentDeclined',
  'PaymentUnavailable',
  'PaymentVoided',
  'PaymentNothingToVoid',
] as const satisfies readonly KnownEventType[];

export type OrderSagaInput = EventOfTypes<typeof ORDER_SAGA_EVENTS>;

/** True for the events `decideOrderSaga` takes; every other event is not the saga's business. */
export function isOrderSagaInput(event: KnownEvent): event is OrderSagaInput {
  return isEventOf(ORDER_SAGA_EVENTS, event);
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

// Nothing was reserved and no payment was asked for: nothing to give back.
function onInventoryReservationRejected(state: OrderState, now: Date): readonly OrderEvent[] {
  if (state.status !== 'awaiting_inventory') return nothing;
  return [cancelled(state, 'out_of_stock', { items: [], paymentVoided: false }, now)];
}

// The compensations of a cancellation (asked by a declined or unavailable
// payment, a deadline or the customer): each is recorded once, and the one
// that completes the pair ends the order.
function onCompensated(
  state: OrderState,
  compensated:
    | { step: 'inventory'; items: readonly OrderLine[] }
    | { step: 'payment'; outcome: 'voided' | 'nothing_held' },
  now: Date,
): readonly OrderEvent[] {
  if (state.status !== 'cancelling') return nothing;
  const { inventory, payment } = state.compensations;
  if (compensated.step === 'inventory' ? inventory !== undefined : payment !== undefined) {
    return nothing;
  }
  const recorded: OrderEvent = {
    type: 'OrderCompensated',
    data: {
      orderId: state.orderId,
      step: compensated.step,
      outcome: compensated.step === 'inventory' ? 'released' : compensated.outcome,
      items: compensated.step === 'inventory' ? [...compensated.items] : [],
      compensatedAt: now.toISOString(),
    },
  };
  const items = compensated.step === 'inventory' ? compensated.items : inventory?.items;
  const paymentOutcome = compensated.step === 'payment' ? compensated.outcome : payment;
  if (items === undefined || paymentOutcome === undefined) return [recorded];
  const released = { items: [...items], paymentVoided: paymentOutcome === 'voided' };
  return [recorded, cancelled(state, state.cancellationReason, released, now)];
}

// Step 2, authorize the payment. Success confirms the order; a decline starts
// the compensation of step 1: the cancellation request makes inventory release.
function onPaymentAuthorized(
  input: Extract<OrderSagaInput, { type: 'PaymentAuthorized' }>,
  state: OrderState,
  now: Date,
): readonly OrderEvent[] {
  // While cancelling, the payment service voids this authorization itself
  // (its cancellation waits behind this request) and says so with PaymentVoided.
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

// A decline, or a processor that stayed down past the authorization's retry
// budget (the payment service made sure nothing was authorized), starts the
// compensation of step 1; payment confirms there is nothing to void.
function onPaymentFailed(
  state: OrderState,
  reason: 'payment_declined' | 'payment_unavailable',
  now: Date,
): readonly OrderEvent[] {
  if (state.status !== 'awaiting_payment') return nothing;
  return [
    {
      type: 'OrderCancellationRequested',
      data: { orderId: state.orderId, reason, requestedAt: now.toISOString() },
    },
  ];
}

function cancelled(
  order: Order,
  reason: CancellationReason,
  released: ReleasedHoldings,
  now: Date,
): OrderEvent {
  return {
    type: 'OrderCancelled',
    data: {
      orderId: order.orderId,
      customerEmail: order.customerEmail,
      reason,
      released,
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
      return onCompensated(state, { step: 'inventory', items: input.data.items }, now);
    case 'PaymentAuthorized':
      return onPaymentAuthorized(input, state, now);
    case 'PaymentDeclined':
      return onPaymentFailed(state, 'payment_declined', now);
    case 'PaymentUnavailable':
      return onPaymentFailed(state, 'payment_unavailable', now);
    case 'PaymentVoided':
      return onCompensated(state, { step: 'payment', outcome: 'voided' }, now);
    case 'PaymentNothingToVoid':
      return onCompensated(state, { step: 'payment', outcome: 'nothing_held' }, now);
    default: {
      const unexpected: never = input;
      throw new Error(`Unknown saga input ${JSON.stringify(unexpected)}`);
    }
  }
}
