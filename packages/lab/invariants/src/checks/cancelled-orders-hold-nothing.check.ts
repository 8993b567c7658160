// "Cancelled" must mean "nothing is held": the saga appends OrderCancelled
// only after inventory released the stock and payment settled the card, so a
// cancelled order with a live authorization at the processor, a capture, or a
// reservation line still holding units was announced before it was true.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { OrderHistory, ProviderAuthorization, ReservedLine } from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';
import { groupBy } from './group-by.js';
import { orderOfKey } from './one-authorization-per-attempt.check.js';
import { eventOf, scopedHistories } from './order-status.js';

export interface HoldingsFacts {
  readonly orders: ReadonlyMap<string, OrderHistory>;
  readonly authorizations: readonly ProviderAuthorization[];
  readonly reservedLines: readonly ReservedLine[];
  /** inventory_order: order id -> status. */
  readonly inventoryOrders: ReadonlyMap<string, string>;
}

interface Holdings {
  readonly authorizations: ReadonlyMap<string, readonly ProviderAuthorization[]>;
  readonly lines: ReadonlyMap<string, readonly ReservedLine[]>;
  readonly inventoryOrders: ReadonlyMap<string, string>;
}

/** What the order still holds, one phrase each; empty when nothing. */
function heldBy(orderId: string, holdings: Holdings): string[] {
  const held: string[] = [];
  for (const entry of holdings.authorizations.get(orderId) ?? []) {
    if (entry.status === 'authorized')
      held.push(
        `authorization ${entry.authorizationId} is still live at the card processor (key ${entry.idempotencyKey})`,
      );
    if (entry.status === 'captured')
      held.push(`authorization ${entry.authorizationId} was captured: the money was taken`);
  }
  for (const line of holdings.lines.get(orderId) ?? []) {
    held.push(`${count(line.quantity, 'unit')} of ${line.sku} still reserved`);
  }
  if (holdings.inventoryOrders.get(orderId) === 'reserved')
    held.push('inventory still records the order as reserved');
  return held;
}

/**
 * The tables are read before the event store, so an order cancelled a moment
 * ago may have given everything back after the tables were read: what it
 * still seems to hold is pending for the settle time, then broken.
 *
 * @example
 * cancelledOrdersHoldNothing({ orders, authorizations, reservedLines, inventoryOrders }, context).status // 'held'
 */
export function cancelledOrdersHoldNothing(
  facts: HoldingsFacts,
  context: CheckContext,
): InvariantCheck {
  const holdings: Holdings = {
    authorizations: groupBy(facts.authorizations, (entry) => orderOfKey(entry.idempotencyKey)),
    lines: groupBy(facts.reservedLines, (line) => line.orderId),
    inventoryOrders: facts.inventoryOrders,
  };
  const violations: Violation[] = [];
  const pending: string[] = [];
  let cancelled = 0;
  for (const history of scopedHistories(facts.orders, context.scope.orderIds)) {
    const outcome = eventOf(history, 'OrderCancelled');
    if (outcome === undefined) continue;
    cancelled += 1;
    const held = heldBy(history.orderId, holdings);
    if (held.length === 0) continue;
    const what = `cancelled ${ageOf(outcome.createdAt, context)} ago, yet ${held.join('; ')}`;
    if (isSettling(outcome.createdAt, context)) pending.push(`order ${history.orderId}: ${what}`);
    else violations.push({ subject: `order ${history.orderId}`, detail: what });
  }
  return finishCheck({
    name: 'cancelled-orders-hold-nothing',
    title: 'A cancelled order holds nothing',
    summary: `${count(cancelled, 'cancelled order')}; ${violations.length === 0 ? 'none holds stock or money' : `${String(violations.length)} still hold something`}`,
    violations,
    pending,
  });
}
