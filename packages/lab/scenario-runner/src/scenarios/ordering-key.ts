// Per-key ordering with isolation (docs/ordering-keys.md). The payment
// consumer orders its messages by order: while one order's payment request
// waits for its retry, that order's cancellation waits behind it, and every
// other order's messages flow past. Without the key the cancellation would be
// handled first, and the request would then authorize a cancelled order.
import type { JournalEntry } from '@effectively-once/fault-injection';
import type { Scenario, ScenarioContext } from '../scenario.js';
import { PAYMENT, entry, holdNextPaymentRequest } from './support.js';

export const orderingKey: Scenario = {
  name: 'ordering-key',
  title: 'A retrying payment request holds back its own order’s cancellation, and no one else',
  summary:
    'Order X’s OrderPaymentRequested is held in payment while order Y is placed and the customer cancels X; it is then released with a failure, and every retry fails until the scenario has seen what waits behind it. GET /admin/blocked shows X’s cancellation blocked by X’s request, by their ordering key (the order); Y’s payment is handled meanwhile. Once the failures stop, X’s request is handled, then its cancellation, in that order.',
  async run(context) {
    const sku = await context.freshSku(10);
    await holdNextPaymentRequest(context);
    const x = await context.placeOrder({ sku, quantity: 1 });
    const held = await context.waitForJournal(
      'X’s payment request to be held',
      entry({ kind: 'held', consumer: PAYMENT, orderId: x }),
    );
    const requestId = held.messageId ?? '';
    const y = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForOrder(y, ['awaiting_payment']);
    await context.api.cancelOrder(x);
    context.step('the customer cancelled X while its payment request is held');
    // Until the fix, every retry of the request fails too. Y's request, older
    // in the group than X's retry once that is due, needs a moment when X's is
    // not: the fix waits for Y's payment, well within the lab's five retries.
    const failing = await context.lab.arm('payment', {
      point: 'on-delivery',
      action: 'fail',
      match: { consumer: PAYMENT, messageId: requestId },
      times: 100,
      reason: 'simulated: the card processor is unreachable',
    });
    await context.lab.release('payment', { then: 'fail' });
    context.step('released with a failure: the request waits in the store for its retry');
    // The consumer copies new messages into its group only when it has a free
    // slot: the cancellation shows once the held request is handed back.
    const blocked = await waitForBlockedCancellation(context, x);
    await context.waitForJournal(
      'Y’s payment to be acknowledged while X’s request keeps failing',
      entry({ kind: 'acked', consumer: PAYMENT, orderId: y }),
    );
    await context.lab.disarmFault('payment', failing.id);
    context.step('the card processor is back (fault disarmed): the next retry goes through');
    context.expect(
      'X’s cancellation was listed as blocked by X’s payment request, waiting for its retry',
      blocked.blockedBy.eventId === requestId && blocked.blockedBy.state !== 'parked',
      `blocked by ${blocked.blockedBy.type} ${blocked.blockedBy.eventId.slice(0, 8)} (${blocked.blockedBy.state})`,
    );
    await context.waitForOrder(y, ['confirmed']);
    await context.waitForOrder(x, ['cancelled']);
    const cancellation = await context.waitForJournal(
      'X’s cancellation to be acknowledged by payment',
      entry({
        kind: 'acked',
        consumer: PAYMENT,
        eventType: 'OrderCancellationRequested',
        orderId: x,
      }),
    );
    await expectOrder(context, { x, y, requestId, cancellationId: cancellation.messageId ?? '' });
  },
};

async function waitForBlockedCancellation(context: ScenarioContext, orderId: string) {
  const row = await context.waitUntil('X’s cancellation to show as blocked', async () => {
    const list = await context.api.blocked('payment', PAYMENT);
    return list.blocked.find(
      (candidate) =>
        candidate.orderingKey === orderId && candidate.type === 'OrderCancellationRequested',
    );
  });
  context.step(
    `GET /admin/payment/blocked: OrderCancellationRequested ${row.eventId.slice(0, 8)} waits behind ${row.blockedBy.type} ${row.blockedBy.eventId.slice(0, 8)} (${row.blockedBy.state})`,
  );
  return row;
}

/** What the payment journal must show: Y passed X's retries, X's messages kept their order. */
async function expectOrder(
  context: ScenarioContext,
  ids: { x: string; y: string; requestId: string; cancellationId: string },
): Promise<void> {
  const payment = (await context.journal()).filter((row) => row.consumer === PAYMENT);
  const first = (match: (row: JournalEntry) => boolean) => payment.find(match)?.id ?? Infinity;
  const request = { consumer: PAYMENT, messageId: ids.requestId };
  const requestAcked = first(entry({ kind: 'acked', ...request }));
  const retries = payment.filter(entry({ kind: 'handed-back', ...request })).length;
  const yAcked = first(entry({ kind: 'acked', consumer: PAYMENT, orderId: ids.y }));
  const cancellationDelivered = first(
    entry({ kind: 'delivered', consumer: PAYMENT, messageId: ids.cancellationId }),
  );
  context.expect(
    'X’s request was handed back for a retry before it went through',
    retries >= 1,
    `${String(retries)} hand-backs`,
  );
  context.expect(
    'Y’s payment was handled while X’s request still waited for its retry',
    yAcked < requestAcked,
    `Y acked #${String(yAcked)}, X’s request acked #${String(requestAcked)}`,
  );
  context.expect(
    'X’s cancellation reached payment only after X’s request was handled',
    requestAcked < cancellationDelivered && cancellationDelivered !== Infinity,
    `request acked #${String(requestAcked)}, cancellation delivered #${String(cancellationDelivered)}`,
  );
  const left = (await context.api.blocked('payment', PAYMENT)).blocked.filter(
    (row) => row.orderingKey === ids.x,
  );
  context.expect(
    'nothing of X is blocked any more',
    left.length === 0,
    `${String(left.length)} rows`,
  );
}
