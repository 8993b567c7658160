// The card processor is down for longer than the order may wait. The payment
// deadline ends the order: stock is released at once, and the order stays
// `cancelling` while the processor is down, because "cancelled" must mean
// nothing is held and only the processor can say so. The cancellation is a
// compensation: retried until it succeeds, never parked for the outage. When
// the processor is back it completes by itself.
import { orderStream } from '@effectively-once/contracts';
import type { Scenario } from '../scenario.js';
import { PAYMENT, entry } from './support.js';

/** Short deadlines, so the run takes seconds; on a stack with the defaults it waits minutes. */
const SHORT_DEADLINES = {
  ORDER_INVENTORY_DEADLINE_MS: '3000',
  ORDER_PAYMENT_DEADLINE_MS: '4000',
  ORDER_COMPLETE_DEADLINE_MS: '8000',
  ORDER_TIMER_POLL_MS: '100',
};
/**
 * How many failed deliveries of the cancellation the runner watches before
 * the processor is back: more than the lab's maxRetryCount (5) allows any
 * counted message, so a cancellation that counted would have been parked.
 */
const OUTAGE_RETRIES = 7;

export const providerOutageDeadline: Scenario = {
  name: 'provider-outage-deadline',
  title: 'The card processor is down past the payment deadline: the order ends when it is back',
  summary:
    'Every delivery to payment fails as if the card processor were unreachable. The payment deadline passes, the order timer cancels the order (timed_out) and inventory releases the stock, but the order stays cancelling: its cancellation fails in payment too, and is retried without counting toward parking. When the processor is back the cancellation finds nothing held and the order ends cancelled; the payment request, parked after its retries, is replayed and finds the order cancelled.',
  stackEnv: SHORT_DEADLINES,
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.arm('payment', {
      point: 'on-delivery',
      action: 'fail',
      match: { consumer: PAYMENT },
      times: 1000,
    });
    context.step('armed: every delivery to payment fails (the card processor is unreachable)');
    const orderId = await context.placeOrder({ sku, quantity: 2 });
    await context.waitForOrder(orderId, ['cancelling'], 30_000);
    context.step('the payment deadline passed: the order timer asked for the cancellation');
    await context.waitUntil('the stock to be released', async () => {
      const stock = await context.api.stock(sku);
      return stock.available === 5 && stock.reserved === 0 ? stock : undefined;
    });
    let seen = 0;
    for (let retry = 0; retry < OUTAGE_RETRIES; retry++) {
      const failed = await context.waitForJournal(
        `the cancellation to fail in payment (${String(retry + 1)} of ${String(OUTAGE_RETRIES)})`,
        (candidate) =>
          entry({ kind: 'delivered', consumer: PAYMENT, orderId, afterId: seen })(candidate) &&
          candidate.eventType === 'OrderCancellationRequested',
        60_000,
      );
      seen = failed.id;
    }
    const waiting = await context.api.order(orderId);
    context.expect(
      'while the processor is down the order stays cancelling: nothing says the card is free',
      waiting.status === 'cancelling',
      waiting.status,
    );
    const parkedCancellation = (await context.api.parked('payment')).parked.some(
      (row) => row.streamName === orderStream(orderId) && row.type === 'OrderCancellationRequested',
    );
    context.expect(
      `the cancellation is not parked after ${String(OUTAGE_RETRIES)} failed deliveries, more than maxRetryCount allows a counted message`,
      !parkedCancellation,
    );

    await context.lab.disarm('payment');
    context.step('disarmed: the card processor is back');
    await context.waitForOrder(orderId, ['cancelled'], 30_000);
    const order = await context.api.order(orderId);
    context.step(
      `order ${orderId.slice(0, 8)}: ${order.timeline.map((row) => row.type).join(' → ')}`,
    );
    context.expect(
      'the order ended cancelled as timed_out',
      order.cancellationReason === 'timed_out',
      order.cancellationReason ?? 'no reason',
    );

    // The request ran out of retries during the outage and was parked; the
    // cancellation passed it. Replayed now, it finds the order cancelled.
    const replayed = await context.api.replayParked('payment');
    context.step(`replayed ${String(replayed.replayed)} parked payment message(s)`);
    await context.waitUntil('the replayed request to be settled', async () => {
      const list = await context.api.parked('payment');
      return list.parked.some((row) => row.streamName === orderStream(orderId)) ? undefined : true;
    });
    const ledger = (await context.api.ledger()).filter((row) =>
      row.idempotencyKey.includes(orderId),
    );
    context.expect('the processor holds no authorization for the order', ledger.length === 0);
  },
};
