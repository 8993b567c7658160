import { describe, expect, it } from 'vitest';
import { composeEmail, emailMessageId } from './email.compose.js';
import type { NotificationRequest } from './notification.js';

const orderId = '6f1c2f4e-3b7a-4c55-9d0e-2a9f0c1b7e11';
const recipient = 'ada@example.com';

const given = (request: NotificationRequest) => ({ whenComposed: () => composeEmail(request) });

describe('emailMessageId', () => {
  it('given an order and a kind, when derived, then it is the same RFC 5322 id every time', () => {
    expect(emailMessageId(orderId, 'order_confirmed')).toBe(
      `<order-${orderId}.order_confirmed@effectively-once.local>`,
    );
    expect(emailMessageId(orderId, 'order_confirmed')).toBe(
      emailMessageId(orderId, 'order_confirmed'),
    );
  });

  it('given the two kinds of one order, when derived, then their ids differ', () => {
    expect(emailMessageId(orderId, 'order_cancelled')).not.toBe(
      emailMessageId(orderId, 'order_confirmed'),
    );
  });
});

describe('composeEmail', () => {
  it('given a confirmation, when composed, then it goes to the customer under the derived Message-ID', () => {
    const email = given({ kind: 'order_confirmed', orderId, recipient }).whenComposed();

    expect(email).toMatchObject({
      messageId: emailMessageId(orderId, 'order_confirmed'),
      orderId,
      kind: 'order_confirmed',
      to: recipient,
      subject: `Your order ${orderId} is confirmed`,
    });
    expect(email.text).toContain('is confirmed');
  });

  it.each([
    ['out_of_stock', 'some of the items were out of stock'],
    ['payment_declined', 'the payment was declined'],
    ['customer_request', 'you asked us to cancel it'],
    ['timed_out', 'it could not be completed in time'],
    ['payment_unavailable', 'the card processor could not be reached'],
  ] as const)(
    'given a cancellation for %s, when composed, then the text gives the reason in words',
    (reason, words) => {
      const email = given({
        kind: 'order_cancelled',
        orderId,
        recipient,
        reason,
        released: null,
      }).whenComposed();

      expect(email.messageId).toBe(emailMessageId(orderId, 'order_cancelled'));
      expect(email.subject).toBe(`Your order ${orderId} was cancelled`);
      expect(email.text).toContain(`because ${words}.`);
      expect(email.text).not.toContain(reason);
    },
  );

  it('given a cancellation that released stock and voided the card, when composed, then the text says both', () => {
    const email = given({
      kind: 'order_cancelled',
      orderId,
      recipient,
      reason: 'timed_out',
      released: {
        items: [
          { sku: 'SKU-MUG', quantity: 2 },
          { sku: 'SKU-TEA', quantity: 1 },
        ],
        paymentVoided: true,
      },
    }).whenComposed();

    expect(email.text).toContain(
      'The 3 items set aside for you were put back (2 × SKU-MUG, 1 × SKU-TEA).',
    );
    expect(email.text).toContain('The hold on your card was released; nothing was charged.');
  });

  it('given a cancellation that held nothing, when composed, then the text says nothing was set aside or held', () => {
    const email = given({
      kind: 'order_cancelled',
      orderId,
      recipient,
      reason: 'customer_request',
      released: { items: [], paymentVoided: false },
    }).whenComposed();

    expect(email.text).toContain('No items had been set aside for you.');
    expect(email.text).toContain('Nothing was held on your card, and nothing was charged.');
  });

  it('given the same request twice, when composed, then both emails are identical (a resend is the same message)', () => {
    const request: NotificationRequest = { kind: 'order_confirmed', orderId, recipient };
    expect(composeEmail(request)).toEqual(composeEmail(request));
  });
});
