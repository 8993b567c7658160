// A typo in the card token (tok_aprove) is the customer's business outcome,
// not an operator's problem: the card processor declines a token it does not
// know, the order is cancelled, its stock comes back, and nothing is parked.
import type { Scenario } from '../scenario.js';

export const unknownToken: Scenario = {
  name: 'unknown-token',
  title: 'A token the card processor does not know: declined, never parked',
  summary:
    'An order is placed with tok_aprove, a well-formed token the fake card processor does not know. The processor declines it (402 unknown_token), the decline is recorded like any other, and the saga cancels the order: stock released, nothing held on the card, no message parked. A token in no card format at all is refused by the order API with 422 before anything starts.',
  async run(context) {
    const sku = await context.freshSku(3);
    const orderId = await context.placeOrder({ sku, quantity: 2, paymentToken: 'tok_aprove' });
    await context.waitForOrder(orderId, ['cancelled']);
    const order = await context.api.order(orderId);
    context.step(
      `order ${orderId.slice(0, 8)}: ${order.timeline.map((row) => row.type).join(' → ')}`,
    );
    context.expect(
      'the order was cancelled because the payment was declined',
      order.cancellationReason === 'payment_declined',
      order.cancellationReason ?? 'no reason',
    );
    const payment = await context.api.payment(orderId);
    context.step(
      `payment attempt ${payment.attemptId}: ${payment.status} (${payment.declineReason ?? ''})`,
    );
    context.expect(
      'the processor declined the unknown token with its reason',
      payment.status === 'declined' && payment.declineReason === 'unknown_token',
      `${payment.status} (${payment.declineReason ?? 'no reason'})`,
    );
    const parked = await context.api.parked('payment');
    context.expect(
      'no payment message is parked',
      !parked.parked.some((row) => row.streamName.endsWith(orderId)),
    );
    const stock = await context.api.stock(sku);
    context.expect(
      'the stock is back where it was',
      stock.available === 3 && stock.reserved === 0,
      `available ${String(stock.available)}, reserved ${String(stock.reserved)}`,
    );
  },
};
