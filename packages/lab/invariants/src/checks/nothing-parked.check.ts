// A parked message is one a consumer gave up on: a contract violation, or a
// failure that outlived its retries. Its effect never happened, so the saga
// waits on it forever until an operator fixes the cause and replays it.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { ParkedFact } from '../facts/facts.types.js';
import { count, finishCheck, type CheckContext } from './check-result.js';
import { includesOrder } from './scope.js';

/**
 * @example
 * nothingParked({ parked }, context).violations // [{ subject: 'inventory-reservation-v1: message 5d…', detail: '…' }]
 */
export function nothingParked(
  facts: { readonly parked: readonly ParkedFact[] },
  context: CheckContext,
): InvariantCheck {
  const parked = facts.parked.filter((message) => includesOrder(context.scope, message.orderId));
  const violations: Violation[] = parked.map((message) => ({
    subject: `${message.group}: message ${message.messageId}`,
    detail: `${message.type}${message.orderId === undefined ? '' : ` of order ${message.orderId}`} parked: ${message.reason ?? 'no reason given'}`,
  }));
  const groups = new Set(parked.map((message) => message.group));
  const outside = facts.parked.length - parked.length;
  const elsewhere = outside === 0 ? '' : ` (${count(outside, 'parked message')} outside the scope)`;
  return finishCheck({
    name: 'nothing-parked',
    title: 'No message is parked',
    summary:
      parked.length === 0
        ? `no consumer group holds a parked message of the orders in scope${elsewhere}`
        : `${count(parked.length, 'parked message')} in ${count(groups.size, 'group')}; replay them once the cause is fixed${elsewhere}`,
    violations,
    pending: [],
  });
}
