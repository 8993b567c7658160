// No transaction is held across a network call (ADR 0012). The lab holds
// notification in the middle of its SMTP exchange, with no transaction open;
// meanwhile another order goes through every other service to confirmed.
// When the send held a transaction open, that one transaction held back every
// consumer group of the stack (ADR 0004), and the other order stood still.
import type { Scenario } from '../scenario.js';
import { NOTIFICATION, entry } from './support.js';

export const slowSmtp: Scenario = {
  name: 'slow-smtp',
  title: 'A slow SMTP exchange holds back no one: another order is confirmed meanwhile',
  summary:
    'notification is held right after the SMTP sink took order A’s email, before the send is recorded: what a slow mail server looks like from the handler, with no transaction open. Order B, placed meanwhile, is reserved, paid and confirmed while the send is still held; only its email waits for notification’s one slot. Released, A’s email is recorded, with one copy in the sink, and B’s email follows.',
  async run(context) {
    const sku = await context.freshSku(5);
    const a = await context.placeOrder({ sku, quantity: 1 });
    await context.lab.arm('notification', {
      point: 'after-email-sent',
      action: 'hold',
      match: { consumer: NOTIFICATION, orderId: a },
    });
    context.step('armed: hold notification in the middle of A’s send (after-email-sent)');
    const held = await context.waitForJournal(
      'A’s send to be held',
      entry({ kind: 'held', consumer: NOTIFICATION, orderId: a }),
    );
    const b = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForOrder(b, ['confirmed']);
    const { holds } = await context.lab.status('notification');
    context.expect(
      'B was confirmed while A’s send was still held',
      holds.some((hold) => hold.orderId === a),
      `${String(holds.length)} hold(s) open when B was confirmed`,
    );
    const waiting = await context.api.emails(b);
    context.step(
      `B’s email while A’s send is held: ${waiting.length === 0 ? 'waiting for notification’s slot' : 'sent'}`,
    );
    await context.lab.release('notification', { then: 'continue' });
    context.step('released: A’s send returns and is recorded');
    const recorded = await context.waitForJournal(
      'A’s send to be recorded',
      entry({
        kind: 'handled',
        consumer: NOTIFICATION,
        messageId: held.messageId,
        afterId: held.id,
      }),
    );
    context.expect(
      'A’s email was recorded as sent by the held delivery',
      recorded.detail['outcome'] === 'applied',
      JSON.stringify(recorded.detail),
    );
    const emailsOfB = await context.waitUntil('B’s email to reach the sink', async () => {
      const received = await context.api.emails(b);
      return received.length > 0 ? received : undefined;
    });
    const emailsOfA = await context.api.emails(a);
    context.expect(
      'A’s email was sent once',
      emailsOfA.length === 1 && !emailsOfA.some((email) => email.duplicate),
      `${String(emailsOfA.length)} cop${emailsOfA.length === 1 ? 'y' : 'ies'} in the sink`,
    );
    context.expect('B’s email was sent once', emailsOfB.length === 1);
  },
};
