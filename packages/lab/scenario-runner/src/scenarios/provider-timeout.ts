// The card processor authorizes, then answers too late: the payment service
// times out and cannot know whether the card was charged. It retries with the
// same idempotency key, derived from the payment attempt; the processor
// replays its stored answer. One authorization, whatever the retries.
import type { Scenario } from '../scenario.js';
import { PAYMENT, entry } from './support.js';

export const providerTimeout: Scenario = {
  name: 'provider-timeout',
  title: 'The provider times out after it authorized: one authorization',
  summary:
    'An order paid with tok_timeout: the fake card processor authorizes and stores its answer, then delays the reply past the payment service\u2019s 2 s timeout. The delivery is handed back and retried with the same Idempotency-Key (authorize:<attempt>); the processor replays the authorization. The order is confirmed with exactly one authorization.',
  async run(context) {
    const sku = await context.freshSku(5);
    const orderId = await context.placeOrder({ sku, quantity: 1, paymentToken: 'tok_timeout' });
    await context.waitForJournal(
      'the payment delivery to be handed back after the timeout',
      entry({ kind: 'handed-back', consumer: PAYMENT, orderId }),
      30_000,
    );
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
