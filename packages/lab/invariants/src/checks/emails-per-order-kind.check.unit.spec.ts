import type { ReceivedEmail } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { MailSinkFacts, OrderHistory } from '../facts/facts.types.js';
import { contextOf, history, JUST_NOW, orderIdOf, ordersOf } from '../testing/facts.fixtures.js';
import { emailsPerOrderKind, kindOfEmail } from './emails-per-order-kind.check.js';

const confirmedId = orderIdOf(1);
const cancelledId = orderIdOf(2);
const confirmed = history(confirmedId, ['OrderPlaced', 'OrderPaymentRequested', 'OrderConfirmed']);
const cancelled = history(cancelledId, ['OrderPlaced', 'OrderCancelled']);

function email(
  orderId: string,
  kind: 'order_confirmed' | 'order_cancelled',
  overrides: Partial<ReceivedEmail> = {},
): ReceivedEmail {
  return {
    messageId: `<order-${orderId}.${kind}@effectively-once.local>`,
    from: 'orders@effectively-once.local',
    to: ['ada@example.com'],
    subject:
      kind === 'order_confirmed'
        ? `Your order ${orderId} is confirmed`
        : `Your order ${orderId} was cancelled`,
    text: '…',
    orderId,
    receivedAt: '2026-12-01T11:00:00.000Z',
    duplicate: false,
    ...overrides,
  };
}

const given = (emails: ReceivedEmail[] | MailSinkFacts, ...histories: OrderHistory[]) => ({
  whenChecked: (scope: AuditScope = {}) =>
    emailsPerOrderKind(
      {
        mailSink: Array.isArray(emails) ? { reachable: true, emails } : emails,
        orders: ordersOf(...histories),
      },
      contextOf(scope),
    ),
});

describe('kindOfEmail', () => {
  it('given the derived Message-ID, when read, then the kind comes from it; else from the subject', () => {
    expect(kindOfEmail(email(confirmedId, 'order_cancelled'))).toBe('order_cancelled');
    expect(
      kindOfEmail({ messageId: '<random@x>', subject: `Your order ${confirmedId} is confirmed` }),
    ).toBe('order_confirmed');
    expect(kindOfEmail({ messageId: '<random@x>', subject: 'Hello' })).toBe('unknown');
  });
});

describe('emails-per-order-kind', () => {
  it('given one email per finished order, of its outcome, when checked, then it holds', () => {
    const check = given(
      [email(confirmedId, 'order_confirmed'), email(cancelledId, 'order_cancelled')],
      confirmed,
      cancelled,
    ).whenChecked();

    expect(check).toMatchObject({ status: 'held', violations: [], pending: [] });
  });

  it('given the same email received twice (a resend), when checked, then it holds and the summary counts the resend', () => {
    const check = given(
      [
        email(confirmedId, 'order_confirmed'),
        email(confirmedId, 'order_confirmed', { duplicate: true }),
      ],
      confirmed,
    ).whenChecked();

    expect(check.status).toBe('held');
    expect(check.summary).toContain('1 resend under the same Message-ID (allowed)');
  });

  it('given two different emails for one order and kind, when checked, then it is broken', () => {
    const check = given(
      [
        email(confirmedId, 'order_confirmed'),
        email(confirmedId, 'order_confirmed', { messageId: '<another@effectively-once.local>' }),
      ],
      confirmed,
    ).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${confirmedId}`,
        detail: `2 different order_confirmed emails (<order-${confirmedId}.order_confirmed@effectively-once.local>, <another@effectively-once.local>): the customer was told twice`,
      },
    ]);
  });

  it('given a confirmed order without its email long after, when checked, then it is broken', () => {
    const check = given([], confirmed).whenChecked();

    expect(check.violations[0]?.detail).toMatch(
      /^no order_confirmed email, OrderConfirmed .* ago$/,
    );
  });

  it('given a cancellation a second ago and no email yet, when checked, then it is pending', () => {
    const young = history(cancelledId, ['OrderPlaced', 'OrderCancelled'], JUST_NOW);
    const check = given([], young).whenChecked();

    expect(check.status).toBe('pending');
    expect(check.pending[0]).toContain(`order ${cancelledId}: no order_cancelled email yet`);
  });

  it('given a confirmation email for a cancelled order, when checked, then it is broken', () => {
    const check = given(
      [email(cancelledId, 'order_cancelled'), email(cancelledId, 'order_confirmed')],
      cancelled,
    ).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      'an order_confirmed email for an order that ended with OrderCancelled',
    );
  });

  it('given an unreachable mail sink, when checked, then it is pending with the reason', () => {
    const check = given(
      { reachable: false, reason: 'http://127.0.0.1:3006: fetch failed (ECONNREFUSED)' },
      confirmed,
    ).whenChecked();

    expect(check).toMatchObject({
      status: 'pending',
      pending: [
        'the mail sink could not be read: http://127.0.0.1:3006: fetch failed (ECONNREFUSED)',
      ],
    });
  });

  it('given a broken order outside the scope, when checked with an order scope, then it is not judged', () => {
    const check = given([email(cancelledId, 'order_cancelled')], confirmed, cancelled).whenChecked({
      orderIds: [cancelledId],
    });

    expect(check.status).toBe('held');
  });
});
