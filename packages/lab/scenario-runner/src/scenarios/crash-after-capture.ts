// The payment service dies between the processor's "captured" and its own
// record of it. The redelivered OrderConfirmed finds the attempt still
// authorized and captures again with the same key: the processor replays its
// answer, the money is taken once, and PaymentCaptured is published once.
import type { Scenario } from '../scenario.js';
import { PAYMENT, REDELIVERY_TIMEOUT_MS, entry } from './support.js';

export const crashAfterCapture: Scenario = {
  name: 'crash-after-capture',
  title: 'Crash after the processor captured, before the capture is recorded',
  summary:
    "payment is killed right after the card processor captured a confirmed order's authorization. Nothing local records it; the restarted service redelivers OrderConfirmed, captures with the same key (capture:<attemptId>) and gets the stored answer. One capture at the processor, the attempt captured, the order confirmed.",
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.arm('payment', {
      point: 'after-provider-captured',
      action: 'crash',
      match: { consumer: PAYMENT, eventType: 'OrderConfirmed', retryCount: 0 },
    });
    context.step('armed: crash payment after the processor captured (first delivery)');
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForOrder(orderId, ['confirmed']);
    await context.waitForJournal('the crash', entry({ kind: 'crash', consumer: PAYMENT, orderId }));
    const payment = await context.waitUntil(
      'the redelivered confirmation to record the capture',
      async () => {
        // 503 while the supervisor restarts payment: not yet.
        const view = await context.api.payment(orderId).catch(() => undefined);
        return view?.status === 'captured' ? view : undefined;
      },
      REDELIVERY_TIMEOUT_MS * 2,
    );
    context.step(`payment attempt ${payment.attemptId}: ${payment.status}`);
    const ledger = (await context.api.ledger()).filter((row) =>
      row.idempotencyKey.includes(orderId),
    );
    context.expect(
      'the processor holds one authorization for the order, captured once',
      ledger.length === 1 && ledger[0]?.status === 'captured',
      ledger.map((row) => `${row.authorizationId} ${row.status}`).join(', ') || 'none',
    );
  },
};
