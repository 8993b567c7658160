// A confirmed order takes the customer's money exactly once: payment captures
// the authorization the order was confirmed with when it hears OrderConfirmed,
// under the key capture:<attemptId>, and records the attempt as captured. No
// capture is money never taken; two are a double charge.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type {
  OrderHistory,
  PaymentAttemptFact,
  ProviderAuthorization,
} from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';
import { groupBy } from './group-by.js';
import { orderOfKey } from './one-authorization-per-attempt.check.js';
import { eventOf, scopedHistories } from './order-status.js';

export interface CaptureFacts {
  readonly orders: ReadonlyMap<string, OrderHistory>;
  /** The authorization each order was confirmed with, by order id. */
  readonly confirmedWith: ReadonlyMap<string, string>;
  readonly authorizations: readonly ProviderAuthorization[];
  readonly paymentAttempts: readonly PaymentAttemptFact[];
}

type Finding =
  | { readonly kind: 'held' }
  | { readonly kind: 'pending'; readonly line: string }
  | { readonly kind: 'broken'; readonly detail: string };

interface ConfirmedOrder {
  readonly orderId: string;
  readonly confirmedAt: Date;
  readonly authorizationId: string | undefined;
  readonly authorizations: readonly ProviderAuthorization[];
  readonly attempts: readonly PaymentAttemptFact[];
}

/** The one capture exists: it must be of the confirmed authorization, and recorded by its attempt. */
function judgeCapture(
  order: ConfirmedOrder,
  capture: ProviderAuthorization,
  context: CheckContext,
): Finding {
  const id = capture.authorizationId;
  if (order.authorizationId !== undefined && id !== order.authorizationId) {
    return {
      kind: 'broken',
      detail: `captured ${id}, but the order was confirmed with ${order.authorizationId}`,
    };
  }
  const attempt = order.attempts.find((candidate) => candidate.authorizationId === id);
  if (attempt?.status === 'captured') return { kind: 'held' };
  const capturedAt = capture.capturedAt ?? capture.createdAt;
  const what = `${id} captured at the card processor ${ageOf(capturedAt, context)} ago, but its payment attempt is ${attempt?.status ?? 'missing'}`;
  // The processor captures first and the payment service records it after.
  return attempt?.status === 'authorized' && isSettling(capturedAt, context)
    ? { kind: 'pending', line: `${what}: the record is on its way` }
    : { kind: 'broken', detail: what };
}

function judgeOrder(order: ConfirmedOrder, context: CheckContext): Finding {
  const captures = order.authorizations.filter((entry) => entry.status === 'captured');
  const [capture] = captures;
  if (captures.length > 1) {
    const ids = captures.map((entry) => entry.authorizationId).join(', ');
    return {
      kind: 'broken',
      detail: `${String(captures.length)} captures at the card processor (${ids}): the customer was charged more than once`,
    };
  }
  if (capture !== undefined) return judgeCapture(order, capture, context);
  const confirmed = `confirmed ${ageOf(order.confirmedAt, context)} ago`;
  if (isSettling(order.confirmedAt, context)) {
    return { kind: 'pending', line: `${confirmed}; the capture is on its way` };
  }
  const entry = order.authorizations.find((one) => one.authorizationId === order.authorizationId);
  const atProcessor =
    entry === undefined
      ? `the card processor has no authorization ${order.authorizationId ?? ''}`.trimEnd()
      : `authorization ${entry.authorizationId} is ${entry.status}`;
  const attempts = order.attempts.map((attempt) => attempt.status).join(', ') || 'none';
  return {
    kind: 'broken',
    detail: `${confirmed}, but nothing was captured: ${atProcessor}; payment attempt: ${attempts}`,
  };
}

/**
 * A confirmed order without its capture is pending while the confirmation is
 * younger than the settle time: the capture follows it by a moment.
 *
 * @example
 * oneCapturePerConfirmedOrder({ orders, confirmedWith, authorizations, paymentAttempts }, context).status // 'held'
 */
export function oneCapturePerConfirmedOrder(
  facts: CaptureFacts,
  context: CheckContext,
): InvariantCheck {
  const authorizations = groupBy(facts.authorizations, (entry) => orderOfKey(entry.idempotencyKey));
  const attempts = groupBy(facts.paymentAttempts, (attempt) => attempt.orderId);
  const violations: Violation[] = [];
  const pending: string[] = [];
  let confirmed = 0;
  for (const history of scopedHistories(facts.orders, context.scope.orderIds)) {
    const outcome = eventOf(history, 'OrderConfirmed');
    if (outcome === undefined) continue;
    confirmed += 1;
    const { orderId } = history;
    const finding = judgeOrder(
      {
        orderId,
        confirmedAt: outcome.createdAt,
        authorizationId: facts.confirmedWith.get(orderId),
        authorizations: authorizations.get(orderId) ?? [],
        attempts: attempts.get(orderId) ?? [],
      },
      context,
    );
    if (finding.kind === 'pending') pending.push(`order ${orderId}: ${finding.line}`);
    if (finding.kind === 'broken')
      violations.push({ subject: `order ${orderId}`, detail: finding.detail });
  }
  return finishCheck({
    name: 'one-capture-per-confirmed-order',
    title: 'A confirmed order is captured once',
    summary: `${String(confirmed - violations.length - pending.length)} of ${count(confirmed, 'confirmed order')} captured once`,
    violations,
    pending,
  });
}
