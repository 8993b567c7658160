// How each fact of the order stream changes the state. Events are facts that
// `decide` already checked, so evolve applies them without judging them.
import type { OrderEvent } from '@effectively-once/contracts';
import {
  detailsOf,
  initialOrderState,
  type CompensationProgress,
  type OrderState,
} from './order.state.js';

/**
 * Folds one event into the state.
 *
 * @example
 * const state = events.reduce(evolve, initialOrderState());
 */
export function evolve(state: OrderState, event: OrderEvent): OrderState {
  if (event.type === 'OrderPlaced') {
    // A second OrderPlaced cannot be decided; if one were stored, the first wins.
    if (state.status !== 'not_placed') return state;
    const { orderId, customerEmail, items, paymentToken, amountCents, placedAt, deadlines } =
      event.data;
    return {
      status: 'awaiting_inventory',
      orderId,
      customerEmail,
      items,
      paymentToken,
      amountCents,
      placedAt,
      deadlines,
    };
  }
  // Every other event follows OrderPlaced; without it there are no details to keep.
  if (state.status === 'not_placed') return state;
  const details = detailsOf(state);
  switch (event.type) {
    case 'OrderPaymentRequested':
      return {
        ...details,
        status: 'awaiting_payment',
        paymentAttemptId: event.data.paymentAttemptId,
      };
    case 'OrderConfirmed':
      return { ...details, status: 'confirmed', authorizationId: event.data.authorizationId };
    case 'OrderCancellationRequested':
      return {
        ...details,
        status: 'cancelling',
        cancellationReason: event.data.reason,
        compensations: { inventory: undefined, payment: undefined },
      };
    case 'OrderCompensated': {
      if (state.status !== 'cancelling') return state;
      const { step, outcome, items } = event.data;
      const compensations: CompensationProgress =
        step === 'inventory'
          ? { ...state.compensations, inventory: { items } }
          : { ...state.compensations, payment: outcome === 'voided' ? 'voided' : 'nothing_held' };
      return { ...state, compensations };
    }
    case 'OrderCancelled':
      return { ...details, status: 'cancelled', cancellationReason: event.data.reason };
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown order event ${JSON.stringify(unexpected)}`);
    }
  }
}

/** The state after all of `events`, in stream order. */
export function evolveAll(events: readonly OrderEvent[]): OrderState {
  return events.reduce(evolve, initialOrderState());
}
