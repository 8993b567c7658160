// The customer's commands on an order. A refusal is a result with a stable
// code, not an exception: the caller must handle it, and the HTTP adapter maps
// each code to one problem type.
import type {
  CommandOf,
  CancelOrder as CancelOrderCommand,
  OrderEvent,
  PlaceOrder as PlaceOrderCommand,
} from '@effectively-once/contracts';
import { amountCentsOf } from './pricing.js';
import type { OrderEventOf, OrderState } from './order.state.js';

// The commands' shapes come from their schemas in the contracts.
export type PlaceOrder = CommandOf<typeof PlaceOrderCommand>;
export type CancelOrder = CommandOf<typeof CancelOrderCommand>;
export type OrderCommand = PlaceOrder | CancelOrder;

export type OrderRefusalCode =
  'ORDER_NOT_FOUND' | 'ORDER_ALREADY_PLACED' | 'ORDER_ALREADY_CONFIRMED';

export type Decision =
  | { readonly outcome: 'accepted'; readonly events: readonly OrderEvent[] }
  | { readonly outcome: 'refused'; readonly code: OrderRefusalCode; readonly detail: string };

const accepted = (...events: OrderEvent[]): Decision => ({ outcome: 'accepted', events });
const refused = (code: OrderRefusalCode, detail: string): Decision => ({
  outcome: 'refused',
  code,
  detail,
});

function placeOrder({ data }: PlaceOrder, state: OrderState): Decision {
  if (state.status !== 'not_placed') {
    return refused('ORDER_ALREADY_PLACED', `Order ${data.orderId} has already been placed.`);
  }
  const placed: OrderEventOf<'OrderPlaced'> = {
    type: 'OrderPlaced',
    data: {
      orderId: data.orderId,
      customerEmail: data.customerEmail,
      items: [...data.items],
      paymentToken: data.paymentToken,
      amountCents: amountCentsOf(data.items),
      placedAt: data.now.toISOString(),
    },
  };
  return accepted(placed);
}

function cancelOrder({ data }: CancelOrder, state: OrderState): Decision {
  switch (state.status) {
    case 'not_placed':
      return refused('ORDER_NOT_FOUND', `There is no order ${data.orderId}.`);
    case 'awaiting_inventory':
    case 'awaiting_payment':
      return accepted({
        type: 'OrderCancellationRequested',
        data: {
          orderId: data.orderId,
          reason: 'customer_request',
          requestedAt: data.now.toISOString(),
        },
      });
    case 'confirmed':
      return refused(
        'ORDER_ALREADY_CONFIRMED',
        `Order ${data.orderId} is confirmed and paid; it can no longer be cancelled.`,
      );
    // Already on its way out, for this or another reason: asking again changes nothing.
    case 'cancelling':
    case 'cancelled':
      return accepted();
    default: {
      const unexpected: never = state;
      throw new Error(`Unknown order state ${JSON.stringify(unexpected)}`);
    }
  }
}

/**
 * Decides what a command does to an order: the events to append, or a refusal.
 *
 * @example
 * const decision = decide({ type: 'CancelOrder', data: { orderId, now: clock() } }, state);
 * if (decision.outcome === 'refused') throw problemFor(decision.code);
 */
export function decide(command: OrderCommand, state: OrderState): Decision {
  switch (command.type) {
    case 'PlaceOrder':
      return placeOrder(command, state);
    case 'CancelOrder':
      return cancelOrder(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown order command ${JSON.stringify(unexpected)}`);
    }
  }
}
