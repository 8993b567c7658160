// A retry never occupies a slot (docs/ordering-keys.md, ADR 0009). More
// orders whose card processor keeps failing than payment has slots, and
// healthy orders behind them: each healthy payment is handled between two
// attempts of a failing one, because a failed attempt waits for its retry in
// the store, not in the consumer. When the old consumer slept its backoff in
// the slot, the failing orders held every slot until they were parked.
// A failing order then ends by itself: on its last allowed delivery the
// request closes the attempt's key at the processor, learns that nothing was
// authorized, and the saga cancels the order as payment_unavailable.
import { orderStream } from '@effectively-once/contracts';
import type { JournalEntry } from '@effectively-once/fault-injection';
import type { Scenario, ScenarioContext } from '../scenario.js';
import {
  PAYMENT,
  REDELIVERY_TIMEOUT_MS,
  entry,
  holdNextPaymentRequest,
  maybeJournal,
} from './support.js';

/** The lab runs each consumer with one slot (CONSUMER_CONCURRENCY=1): three failing orders are more. */
const FAILING = 3;
const HEALTHY = 2;

export const providerOutageIsolation: Scenario = {
  name: 'provider-outage-isolation',
  title: 'The card processor fails for some orders: the others are paid between their retries',
  summary:
    'Three orders paid with tok_error (the fake card processor answers 503 every time) and two healthy ones reach payment together, one slot among them. Each healthy payment is handled between two attempts of a failing one, and the healthy orders are confirmed. On its last allowed delivery each failing request closes its key at the processor (nothing was authorized) instead of being parked, and its order ends cancelled as payment_unavailable, stock released, nothing held.',
  async run(context) {
    const sku = await context.freshSku(10);
    // Holding the first request in payment's one slot lets every other
    // request arrive before the first attempt fails: all start together.
    await holdNextPaymentRequest(context);
    const first = await placeFailing(context, sku);
    await context.waitForJournal(
      'the first failing request to be held',
      entry({ kind: 'held', consumer: PAYMENT, orderId: first }),
    );
    const failing = [first];
    for (let index = 1; index < FAILING; index++) failing.push(await placeFailing(context, sku));
    const healthy: string[] = [];
    for (let index = 0; index < HEALTHY; index++) {
      healthy.push(await context.placeOrder({ sku, quantity: 1 }));
    }
    for (const orderId of [...failing, ...healthy]) {
      await context.waitForOrder(orderId, ['awaiting_payment']);
    }
    await context.lab.release('payment', { then: 'continue' });
    context.step('released: every payment request is in the group, one slot to share');
    for (const orderId of healthy) await context.waitForOrder(orderId, ['confirmed']);
    await expectPaidBetweenRetries(context, { failing, healthy });
    for (const orderId of failing) await context.waitForOrder(orderId, ['cancelled'], 60_000);
    await expectEndedUnavailable(context, failing);
  },
};

/** A tok_error order: its card never works, yet the order must end, with nothing held. */
async function placeFailing(context: ScenarioContext, sku: string): Promise<string> {
  return context.placeOrder({ sku, quantity: 1, paymentToken: 'tok_error' });
}

/**
 * Each healthy payment was acknowledged between two attempts of the failing
 * requests: after one of them, and before one that is still to come. Under the
 * old sleeping retries no failing attempt comes after a healthy one's ack: the
 * healthy ones got the slot only once every failing one was parked.
 */
async function expectPaidBetweenRetries(
  context: ScenarioContext,
  orders: { failing: readonly string[]; healthy: readonly string[] },
): Promise<void> {
  const isAttempt = (row: JournalEntry) =>
    row.kind === 'delivered' &&
    row.consumer === PAYMENT &&
    orders.failing.includes(row.orderId ?? '');
  const journal = await context.journal();
  const acks = orders.healthy.map(
    (orderId) => journal.find(entry({ kind: 'acked', consumer: PAYMENT, orderId }))?.id ?? Infinity,
  );
  const lastAck = Math.max(...acks);
  const later = await maybeJournal(
    context,
    'a failing request to be tried again after the healthy payments',
    (row) => isAttempt(row) && row.id > lastAck,
    REDELIVERY_TIMEOUT_MS,
  );
  orders.healthy.forEach((orderId, index) => {
    const ack = acks[index] ?? Infinity;
    const before = journal.filter((row) => isAttempt(row) && row.id < ack).length;
    context.expect(
      `healthy order ${orderId.slice(0, 8)} was paid between two attempts of the failing requests`,
      before > 0 && later !== undefined && ack < later.id,
      `${String(before)} failing attempts before its ack, the next at #${String(later?.id ?? 'none')}`,
    );
  });
  context.step(
    `failing attempts so far: ${describeAttempts((await context.journal()).filter(isAttempt))}`,
  );
}

function describeAttempts(attempts: readonly JournalEntry[]): string {
  const perOrder = new Map<string, number>();
  for (const row of attempts) {
    const orderId = (row.orderId ?? '').slice(0, 8);
    perOrder.set(orderId, (perOrder.get(orderId) ?? 0) + 1);
  }
  return [...perOrder].map(([orderId, count]) => `${orderId} ${String(count)}`).join(', ');
}

/**
 * Each failing order ended without an operator: cancelled as
 * payment_unavailable, no authorization at the processor, and no payment
 * message left parked to block it.
 */
async function expectEndedUnavailable(context: ScenarioContext, failing: readonly string[]) {
  const ledger = await context.api.ledger();
  const parked = await context.api.parked('payment');
  for (const orderId of failing) {
    const order = await context.api.order(orderId);
    context.step(
      `order ${orderId.slice(0, 8)}: ${order.status} (${order.cancellationReason ?? ''}), ${order.timeline.map((row) => row.type).join(' → ')}`,
    );
    context.expect(
      `order ${orderId.slice(0, 8)} was cancelled as payment_unavailable`,
      order.status === 'cancelled' && order.cancellationReason === 'payment_unavailable',
      `${order.status} (${order.cancellationReason ?? 'no reason'})`,
    );
    context.expect(
      `the processor holds no authorization for order ${orderId.slice(0, 8)}`,
      !ledger.some((row) => row.idempotencyKey.includes(orderId)),
    );
    context.expect(
      `no payment message of order ${orderId.slice(0, 8)} is parked`,
      !parked.parked.some((row) => row.streamName === orderStream(orderId)),
    );
  }
}
