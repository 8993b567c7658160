// The saga's promise to the customer: every order ends, confirmed or
// cancelled, exactly once. An order still on its way is pending for a while;
// one that stays halfway past the settle time is stuck.
import { orderStream } from '@effectively-once/contracts';
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { OrderHistory } from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';

export const OUTCOMES: ReadonlySet<string> = new Set(['OrderConfirmed', 'OrderCancelled']);

type Finding =
  { kind: 'ended' } | { kind: 'pending'; line: string } | { kind: 'broken'; violation: Violation };

function judgeOrder(
  orderId: string,
  history: OrderHistory | undefined,
  context: CheckContext,
): Finding {
  const subject = `order ${orderId}`;
  const first = history?.events[0];
  const last = history?.events.at(-1);
  if (first === undefined || last === undefined) {
    return {
      kind: 'broken',
      violation: { subject, detail: `the event store has no stream ${orderStream(orderId)}` },
    };
  }
  const outcomes = history?.events.filter((event) => OUTCOMES.has(event.type)) ?? [];
  if (outcomes.length > 1) {
    const types = outcomes.map((event) => event.type).join(', ');
    return {
      kind: 'broken',
      violation: {
        subject,
        detail: `${String(outcomes.length)} outcomes (${types}): an order ends once`,
      },
    };
  }
  if (OUTCOMES.has(last.type)) return { kind: 'ended' };
  const [outcome] = outcomes;
  if (outcome !== undefined) {
    return {
      kind: 'broken',
      violation: { subject, detail: `${last.type} after its outcome ${outcome.type}` },
    };
  }
  const where = `at ${last.type}, placed ${ageOf(first.createdAt, context)} ago`;
  return isSettling(first.createdAt, context)
    ? { kind: 'pending', line: `${subject}: ${where}` }
    : {
        kind: 'broken',
        violation: { subject, detail: `stuck ${where}: neither confirmed nor cancelled` },
      };
}

/**
 * @example
 * ordersTerminal({ orders: store.orders }, context).pending // ['order 6f1c…: at OrderPaymentRequested, placed 1.2 s ago']
 */
export function ordersTerminal(
  facts: { readonly orders: ReadonlyMap<string, OrderHistory> },
  context: CheckContext,
): InvariantCheck {
  const orderIds = [...(context.scope.orderIds ?? facts.orders.keys())];
  const violations: Violation[] = [];
  const pending: string[] = [];
  for (const orderId of orderIds) {
    const finding = judgeOrder(orderId, facts.orders.get(orderId), context);
    if (finding.kind === 'broken') violations.push(finding.violation);
    if (finding.kind === 'pending') pending.push(finding.line);
  }
  const ended = orderIds.length - violations.length - pending.length;
  return finishCheck({
    name: 'orders-terminal',
    title: 'Every order reaches one outcome',
    summary: `${String(ended)} of ${count(orderIds.length, 'order')} confirmed or cancelled`,
    violations,
    pending,
  });
}
