// An email cannot be taken back. The notification service dies after the
// SMTP server accepted the message and before it recorded the send; the
// redelivery sends again, with the same Message-ID, so the receiving side
// can recognise the resend. Effectively once needs the receiver's help here.
import type { Scenario } from '../scenario.js';
import { NOTIFICATION, entry } from './support.js';

/**
 * The dead attempt still holds the intent to send, and the redelivery cannot
 * tell it from one still sending: it waits out notification's send lease
 * (DEFAULT_SEND_LEASE_MS, 60 s) before it sends again; then a restart and a
 * retry's wait (up to 5 s) on top.
 */
const RESEND_AFTER_THE_LEASE_MS = 90_000;

export const crashAfterEmailSent: Scenario = {
  name: 'crash-after-email-sent',
  title: 'Crash after the email was sent, before it was recorded',
  summary:
    'notification is killed right after the SMTP sink accepted the confirmation email. The restarted service waits out the dead attempt’s 60 s hold on the email, then sends it again under the same Message-ID; the sink flags the second copy as a duplicate. One email per (order, kind), one resend, counted honestly.',
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.arm('notification', {
      point: 'after-email-sent',
      action: 'crash',
      match: { consumer: NOTIFICATION, retryCount: 0 },
    });
    context.step('armed: crash notification after the email was sent (first delivery)');
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForJournal(
      'the crash',
      entry({ kind: 'crash', consumer: NOTIFICATION, orderId }),
      30_000,
    );
    const emails = await context.waitUntil(
      'the resend to reach the sink, once the dead attempt’s hold ran out',
      async () => {
        const received = await context.api.emails(orderId);
        return received.length >= 2 ? received : undefined;
      },
      RESEND_AFTER_THE_LEASE_MS,
    );
    const ids = new Set(emails.map((email) => email.messageId));
    context.expect('both copies carry one Message-ID', ids.size === 1, [...ids].join(', '));
    context.expect(
      'the sink recognised the second copy as a resend',
      emails.some((email) => email.duplicate),
    );
  },
};
