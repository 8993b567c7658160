// The commands on an order: the customer's (place, cancel) and the deadline
// timer's (expire). A refusal is a result with a stable code, not an
// exception: the caller must handle it, and the HTTP adapter maps each of the
// customer's codes to one problem type.
import type {
  CommandOf,
  CancelOrder as CancelOrderCommand,
  ExpireOrder as ExpireOrderCommand,
  OrderEvent,
  PlaceOrder as PlaceOrderCommand,
} from '@effectively-once/contracts';
import { dueAt } from './order-deadlines.js';
import { amountCentsOf } from './pricing.js';
import type { OrderEventOf, OrderState } from './order.state.js';

// The commands' shapes come from their schemas in the contracts.
export type PlaceOrder = CommandOf<typeof PlaceOrderCommand>;
export type CancelOrder = CommandOf<typeof CancelOrderCommand>;
export type ExpireOrder = CommandOf<typeof ExpireOrderCommand>;
export type OrderCommand = PlaceOrder | CancelOrder | ExpireOrder;

/** The refusals of the customer's commands: each has its problem type in the API. */
export type OrderRefusalCode =
  'ORDER_NOT_FOUND' | 'ORDER_ALREADY_PLACED' | 'ORDER_ALREADY_CONFIRMED';

/** The timer's only refusal: it fired before its deadline, and must try again later. */
export type DeadlineRefusalCode = 'NOT_DUE';

export type Decision<Code extends string = OrderRefusalCode> =
  | { readonly outcome: 'accepted'; readonly events: readonly OrderEvent[] }
  | { readonly outcome: 'refused'; readonly code: Code; readonly detail: string };

const accepted = (...events: OrderEvent[]): Decision<never> => ({ outcome: 'accepted', events });
const refused = <Code extends string>(code: Code, detail: string): Decision<Code> => ({
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
      deadlines: { ...data.deadlines },
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

/** Whether the deadline still guards a step the order has not passed: only then does it cancel. */
function isGuarding(deadline: ExpireOrder['data']['deadline'], state: OrderState): boolean {
  switch (state.status) {
    case 'awaiting_inventory':
      return true;
    case 'awaiting_payment':
      return deadline !== 'inventory';
    // Past every step, or already on its way out: a cancelling order past
    // completeBy is not cancelled again, its compensations are still retrying.
    case 'not_placed':
    case 'confirmed':
    case 'cancelling':
    case 'cancelled':
      return false;
    default: {
      const unexpected: never = state;
      throw new Error(`Unknown order state ${JSON.stringify(unexpected)}`);
    }
  }
}

// | deadline  | cancels the order while it is         |
// | --------- | ------------------------------------- |
// | inventory | awaiting_inventory                    |
// | payment   | awaiting_inventory, awaiting_payment  |
// | complete  | neither terminal nor cancelling       |
// Anything else, and a timer firing twice, is accepted with no events: the
// timer is done. Before its time the timer is refused: it tries again later.
function expireOrder({ data }: ExpireOrder, state: OrderState): Decision<DeadlineRefusalCode> {
  // Never appended (its request's append did not happen), or placed before
  // deadlines existed: there is no deadline to enforce.
  if (state.status === 'not_placed' || state.deadlines === null) return accepted();
  const due = dueAt(state.deadlines, data.deadline);
  if (data.now.getTime() < due.getTime()) {
    return refused(
      'NOT_DUE',
      `The ${data.deadline} deadline of order ${data.orderId} falls due at ${due.toISOString()}.`,
    );
  }
  if (!isGuarding(data.deadline, state)) return accepted();
  return accepted({
    type: 'OrderCancellationRequested',
    data: { orderId: data.orderId, reason: 'timed_out', requestedAt: data.now.toISOString() },
  });
}

/**
 * Decides what a command does to an order: the events to append, or a refusal.
 *
 * @example
 * const decision = decide({ type: 'CancelOrder', data: { orderId, now: clock() } }, state);
 * if (decision.outcome === 'refused') throw problemFor(decision.code);
 */
export function decide(command: ExpireOrder, state: OrderState): Decision<DeadlineRefusalCode>;
export function decide(command: PlaceOrder | CancelOrder, state: OrderState): Decision;
export function decide(
  command: OrderCommand,
  state: OrderState,
): Decision<OrderRefusalCode | DeadlineRefusalCode>;
export function decide(
  command: OrderCommand,
  state: OrderState,
): Decision<OrderRefusalCode | DeadlineRefusalCode> {
  switch (command.type) {
    case 'PlaceOrder':
      return placeOrder(command, state);
    case 'CancelOrder':
      return cancelOrder(command, state);
    case 'ExpireOrder':
      return expireOrder(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown order command ${JSON.stringify(unexpected)}`);
    }
  }
}
