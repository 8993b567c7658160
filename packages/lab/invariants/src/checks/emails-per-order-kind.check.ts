// What the customer's inbox shows, read from the mail sink: per order and
// kind at most one distinct email (a resend under the same Message-ID is the
// accepted cost of a crash between the send and its record, and the receiver
// can drop it), and every finished order has the email of its outcome. The
// notification service emails every OrderConfirmed and every OrderCancelled,
// whatever the reason.
import type { NotificationKind, ReceivedEmail } from '@effectively-once/contracts';
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { MailSinkFacts, OrderHistory } from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';
import { OUTCOMES } from './orders-terminal.check.js';
import { includesOrder } from './scope.js';

const KIND_OF_OUTCOME: Readonly<Record<string, NotificationKind>> = {
  OrderConfirmed: 'order_confirmed',
  OrderCancelled: 'order_cancelled',
};

/**
 * The notification's kind: from the Message-ID the notification service
 * derives, `<order-<id>.<kind>@…>`; else from the subject, so that an email
 * under a wrong Message-ID is still grouped with its (order, kind).
 */
export function kindOfEmail(email: Pick<ReceivedEmail, 'messageId' | 'subject'>): string {
  const fromId = /^<order-.+\.(order_confirmed|order_cancelled)@[^>]+>$/.exec(email.messageId)?.[1];
  if (fromId !== undefined) return fromId;
  if (/ is confirmed$/.test(email.subject)) return 'order_confirmed';
  if (/ was cancelled$/.test(email.subject)) return 'order_cancelled';
  return 'unknown';
}

/** The X-Order-Id header, else the order id in the derived Message-ID. */
export function orderOfEmail(
  email: Pick<ReceivedEmail, 'messageId' | 'orderId'>,
): string | undefined {
  return email.orderId ?? /^<order-(.+)\.[a-z_]+@[^>]+>$/.exec(email.messageId)?.[1];
}

interface Inbox {
  /** `${orderId} ${kind}` -> the emails received. */
  readonly byOrderKind: Map<string, ReceivedEmail[]>;
  resends: number;
}

function inboxOf(emails: readonly ReceivedEmail[], context: CheckContext): Inbox {
  const inbox: Inbox = { byOrderKind: new Map(), resends: 0 };
  for (const email of emails) {
    const orderId = orderOfEmail(email);
    if (orderId === undefined || !includesOrder(context.scope, orderId)) continue;
    const key = `${orderId} ${kindOfEmail(email)}`;
    inbox.byOrderKind.set(key, [...(inbox.byOrderKind.get(key) ?? []), email]);
    if (email.duplicate) inbox.resends += 1;
  }
  return inbox;
}

function tooMany(inbox: Inbox): Violation[] {
  const violations: Violation[] = [];
  for (const [key, emails] of inbox.byOrderKind) {
    const ids = [...new Set(emails.map((email) => email.messageId))];
    if (ids.length > 1) {
      const [orderId = '', kind = ''] = key.split(' ');
      violations.push({
        subject: `order ${orderId}`,
        detail: `${String(ids.length)} different ${kind} emails (${ids.join(', ')}): the customer was told twice`,
      });
    }
  }
  return violations;
}

function judgeOutcomes(
  orders: ReadonlyMap<string, OrderHistory>,
  inbox: Inbox,
  context: CheckContext,
): { violations: Violation[]; pending: string[]; judged: number } {
  const violations: Violation[] = [];
  const pending: string[] = [];
  const orderIds = [...(context.scope.orderIds ?? orders.keys())];
  let judged = 0;
  for (const orderId of orderIds) {
    const outcome = orders.get(orderId)?.events.findLast((event) => OUTCOMES.has(event.type));
    const kind = outcome === undefined ? undefined : KIND_OF_OUTCOME[outcome.type];
    if (outcome === undefined || kind === undefined) continue; // orders-terminal judges that
    judged += 1;
    const other = kind === 'order_confirmed' ? 'order_cancelled' : 'order_confirmed';
    if (inbox.byOrderKind.has(`${orderId} ${other}`)) {
      violations.push({
        subject: `order ${orderId}`,
        detail: `an ${other} email for an order that ended with ${outcome.type}`,
      });
    }
    if (inbox.byOrderKind.has(`${orderId} ${kind}`)) continue;
    const when = `${outcome.type} ${ageOf(outcome.createdAt, context)} ago`;
    if (isSettling(outcome.createdAt, context))
      pending.push(`order ${orderId}: no ${kind} email yet (${when})`);
    else violations.push({ subject: `order ${orderId}`, detail: `no ${kind} email, ${when}` });
  }
  return { violations, pending, judged };
}

/**
 * @example
 * emailsPerOrderKind({ mailSink, orders: store.orders }, context).summary // '2 orders emailed as they ended; 1 resend …'
 */
export function emailsPerOrderKind(
  facts: { readonly mailSink: MailSinkFacts; readonly orders: ReadonlyMap<string, OrderHistory> },
  context: CheckContext,
): InvariantCheck {
  const base = { name: 'emails-per-order-kind', title: 'One email per order and kind' };
  if (!facts.mailSink.reachable) {
    const reason = `the mail sink could not be read: ${facts.mailSink.reason}`;
    return finishCheck({ ...base, summary: reason, violations: [], pending: [reason] });
  }
  const inbox = inboxOf(facts.mailSink.emails, context);
  const outcomes = judgeOutcomes(facts.orders, inbox, context);
  const violations = [...tooMany(inbox), ...outcomes.violations];
  return finishCheck({
    ...base,
    summary: `${count(outcomes.judged, 'finished order')}, ${count(inbox.byOrderKind.size, '(order, kind) inbox', '(order, kind) inboxes')}; ${count(inbox.resends, 'resend')} under the same Message-ID (allowed)`,
    violations,
    pending: outcomes.pending,
  });
}
