// The payment service dies between the processor's "authorized" and its own
// record of it. The restarted service asks again with the same idempotency
// key and gets the stored answer: the crash costs a round trip, not a charge.
import type { Scenario } from '../scenario.js';
import { PAYMENT, entry } from './support.js';

export const crashAfterProviderAuthorized: Scenario = {
  name: 'crash-after-provider-authorized',
  title: 'Crash after the provider authorized, before the result is recorded',
  summary:
    'payment is killed right after the card processor authorized. Nothing local records it; the restarted service redelivers OrderPaymentRequested, calls the processor with the same key and receives the replayed authorization. One authorization; the order is confirmed.',
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.arm('payment', {
      point: 'after-provider-authorized',
      action: 'crash',
      match: { consumer: PAYMENT, retryCount: 0 },
    });
    context.step('armed: crash payment after the provider authorized (first delivery)');
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForJournal('the crash', entry({ kind: 'crash', consumer: PAYMENT, orderId }));
    await context.waitForOrder(orderId, ['confirmed'], 60_000);
    const authorizations = (await context.api.ledger()).filter((row) =>
      row.idempotencyKey.includes(orderId),
    );
    context.expect(
      'the processor holds exactly one authorization for the order',
      authorizations.length === 1,
      `${String(authorizations.length)} authorizations`,
    );
  },
};
