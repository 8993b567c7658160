// A saga deadline is a row in the order database, not a setTimeout in a
// process: the order service is SIGKILLed while an order waits for its
// stock, and the restarted service still fires the deadline. The order ends
// cancelled (timed_out) with its stock back.
import { orderStream, parseEvent, type OrderResource } from '@effectively-once/contracts';
import type { Scenario, ScenarioContext } from '../scenario.js';
import { RESERVATION, entry } from './support.js';

/**
 * The deadlines this scenario is written for: a few seconds, so the run takes
 * seconds. On a stack with the defaults (30 s for the stock) it waits longer.
 */
const SHORT_DEADLINES = {
  ORDER_INVENTORY_DEADLINE_MS: '5000',
  ORDER_PAYMENT_DEADLINE_MS: '10000',
  ORDER_COMPLETE_DEADLINE_MS: '15000',
  ORDER_TIMER_POLL_MS: '100',
};
/** Beyond the deadline itself: a restart of the order service and a timer pass. */
const FIRING_MARGIN_MS = 30_000;
const STOCK = 5;

export const deadlineAfterCrash: Scenario = {
  name: 'deadline-after-crash',
  title: 'The order service is killed while an order waits: its deadline still fires',
  summary:
    'Both inventory processes hold OrderPlaced on delivery to inventory-reservation-v1, so the order waits in awaiting_inventory. The order service is SIGKILLed before the inventory deadline and started again by the supervisor. Its timer is a row in the order database: the restarted service fires it, the order is cancelled with reason timed_out, and once inventory goes on its stock is back where it was.',
  stackEnv: SHORT_DEADLINES,
  async run(context) {
    const sku = await context.freshSku(STOCK);
    await context.lab.armInventory({
      point: 'on-delivery',
      action: 'hold',
      match: { consumer: RESERVATION, eventType: 'OrderPlaced' },
      // The lease runs out while a delivery is held: the redelivery is held too.
      times: 10,
    });
    context.step(
      'armed on inventory and inventory-2: hold OrderPlaced on delivery to inventory-reservation-v1',
    );
    const orderId = await context.placeOrder({ sku, quantity: 2 });
    await context.waitForJournal(
      'the placement to be held',
      entry({ kind: 'held', consumer: RESERVATION, orderId }),
    );
    const deadlines = (await context.api.order(orderId)).deadlines;
    if (deadlines === null) throw new Error(`Order ${orderId} has no deadlines.`);
    const inventoryBy = new Date(deadlines.inventoryBy);
    context.step(`order ${orderId.slice(0, 8)} must have its stock by ${deadlines.inventoryBy}`);

    const killedAt = await killOrderService(context, orderId);
    context.expect(
      'the order service died before the inventory deadline, so only a restarted one can fire it',
      killedAt < inventoryBy,
      `killed at ${killedAt.toISOString()}, deadline ${deadlines.inventoryBy}`,
    );

    const waitMs = Math.max(0, inventoryBy.getTime() - Date.now()) + FIRING_MARGIN_MS;
    await context.waitForOrder(orderId, ['cancelling', 'cancelled'], waitMs);
    await expectOneTimedOutCancellation(context, { orderId, inventoryBy });

    await context.lab.release('inventory', { then: 'continue' });
    await context.lab.release('inventory-2', { then: 'continue' });
    await context.lab.disarm('inventory');
    await context.lab.disarm('inventory-2');
    context.step('released: inventory handles the placement and the cancellation');
    await context.waitForOrder(orderId, ['cancelled']);
    await expectCancelledWithStockBack(context, { orderId, sku });
  },
};

/** SIGKILLs the order service (the lab runs on this machine) and waits for its next start. */
async function killOrderService(context: ScenarioContext, orderId: string): Promise<Date> {
  const { pid } = await context.lab.status('order');
  process.kill(pid, 'SIGKILL');
  await context.waitUntil('the order service to die', () =>
    Promise.resolve(isAlive(pid) ? undefined : true),
  );
  const killedAt = new Date();
  context.step(`SIGKILLed the order service (pid ${String(pid)}) while the order waits`);
  const started = await context.waitForJournal(
    'the order service to start again',
    (candidate) =>
      candidate.kind === 'process-started' &&
      candidate.service === 'order' &&
      candidate.pid !== pid,
  );
  context.step(`the supervisor started the order service again (pid ${String(started.pid)})`);
  // Started is not ready: the gateway answers 503 until the service listens.
  await context.waitUntil('the order service to answer again', () =>
    context.api.order(orderId).catch(() => undefined),
  );
  return killedAt;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One OrderCancellationRequested, timed_out, written no earlier than the deadline. */
async function expectOneTimedOutCancellation(
  context: ScenarioContext,
  input: { orderId: string; inventoryBy: Date },
): Promise<void> {
  const store = await context.openStore();
  try {
    const requests = (await store.readStream(orderStream(input.orderId))).filter(
      (event) => event.type === 'OrderCancellationRequested',
    );
    const [request] = requests;
    const reasons = requests.map((recorded) => {
      const event = parseEvent({
        type: recorded.type,
        data: recorded.data,
        schemaVersion: recorded.metadata.schemaVersion,
      });
      return event.type === 'OrderCancellationRequested' ? event.data.reason : undefined;
    });
    context.step(
      `the timer appended OrderCancellationRequested at ${request?.createdAt.toISOString() ?? 'never'}`,
    );
    context.expect(
      'the deadline requested the cancellation once, with reason timed_out',
      reasons.length === 1 && reasons[0] === 'timed_out',
      reasons.join(', ') || 'none',
    );
    context.expect(
      'the timer did not fire early',
      request !== undefined && request.createdAt >= input.inventoryBy,
      `appended ${request?.createdAt.toISOString() ?? 'never'}, due ${input.inventoryBy.toISOString()}`,
    );
  } finally {
    await store.close();
  }
}

async function expectCancelledWithStockBack(
  context: ScenarioContext,
  input: { orderId: string; sku: string },
): Promise<void> {
  const order: OrderResource = await context.api.order(input.orderId);
  context.expect(
    'the order ended cancelled, timed_out',
    order.status === 'cancelled' && order.cancellationReason === 'timed_out',
    `${order.status}, ${String(order.cancellationReason)}`,
  );
  const stock = await context.api.stock(input.sku);
  context.expect(
    'the stock is back: nothing reserved, nothing consumed',
    stock.available === STOCK && stock.reserved === 0 && stock.consumed === 0,
    JSON.stringify(stock),
  );
}
