// The customer cancels while the card processor is authorizing. The
// authorization exists at the processor before payment has recorded it; the
// cancellation waits behind the request (the payment consumer orders one
// order's messages), then voids what the request recorded. No authorization
// outlives the order.
import type { Scenario } from '../scenario.js';
import { PAYMENT, entry } from './support.js';

export const cancelRacingAuthorize: Scenario = {
  name: 'cancel-racing-authorize',
  title: 'A cancellation races an authorization: no live authorization survives',
  summary:
    "payment is held right after the card processor authorized an order, before it records the answer. The customer cancels the order then: stock is released at once, and the order stays cancelling. Released, payment records the authorization; the cancellation, behind it in the order's queue, voids it; only then is the order cancelled, and its email says the hold on the card was released.",
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.arm('payment', {
      point: 'after-provider-authorized',
      action: 'hold',
      match: { consumer: PAYMENT },
    });
    context.step('armed: hold payment after the processor authorized');
    const orderId = await context.placeOrder({ sku, quantity: 2 });
    await context.waitForJournal(
      'the authorization to be held before it is recorded',
      entry({ kind: 'held', consumer: PAYMENT, orderId }),
    );
    await context.api.cancelOrder(orderId);
    context.step('the customer cancelled while the authorization is unrecorded');
    await context.waitUntil('the stock to be released while payment is held', async () => {
      const stock = await context.api.stock(sku);
      return stock.available === 5 ? stock : undefined;
    });
    const waiting = await context.api.order(orderId);
    context.expect(
      'the order is not cancelled while the authorization is unsettled',
      waiting.status === 'cancelling',
      waiting.status,
    );
    await context.lab.release('payment', { then: 'continue' });
    context.step('released: payment records the authorization');
    await context.waitForOrder(orderId, ['cancelled'], 30_000);
    const order = await context.api.order(orderId);
    context.step(
      `order ${orderId.slice(0, 8)}: ${order.timeline.map((row) => row.type).join(' → ')}`,
    );
    const ledger = (await context.api.ledger()).filter((row) =>
      row.idempotencyKey.includes(orderId),
    );
    context.expect(
      'the one authorization the race made is voided',
      ledger.length === 1 && ledger[0]?.status === 'voided',
      ledger.map((row) => `${row.authorizationId} ${row.status}`).join(', ') || 'none',
    );
    const emails = await context.waitUntil('the cancellation email', async () => {
      const list = await context.api.emails(orderId);
      return list.length > 0 ? list : undefined;
    });
    context.expect(
      'the cancellation email, sent after the void, says the hold was released',
      emails.length === 1 && (emails[0]?.text.includes('hold on your card was released') ?? false),
      emails[0]?.text ?? 'no email',
    );
  },
};
