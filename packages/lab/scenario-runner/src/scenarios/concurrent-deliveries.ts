// Two deliveries of one message at once, in two consumer processes. The first
// process is held before its claim until its lease runs out; the store then
// hands the same message to the second process, which is held at the same
// point. Released together, both race to INSERT the marker: the unique index
// lets exactly one of them apply.
import type { Scenario } from '../scenario.js';
import { DEMAND, entry, handledOutcomes } from './support.js';

export const concurrentDeliveries: Scenario = {
  name: 'concurrent-deliveries',
  title: 'Two deliveries of one event at once, on two consumer processes',
  summary:
    'inventory and inventory-2 both receive the same OrderPlaced (the first holds it past its 3 s lease, so the store redelivers it to the second) and both are released into the claim at the same moment. One applies; the other waits on the unique index and reports a duplicate.',
  async run(context) {
    const sku = await context.freshSku(10);
    await context.lab.armInventory({
      point: 'before-claim',
      action: 'hold',
      match: { consumer: DEMAND, eventType: 'OrderPlaced' },
    });
    context.step('armed on inventory and inventory-2: hold inventory-demand-v1 before its claim');
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    const first = await context.waitForJournal(
      'the first hold',
      entry({ kind: 'held', consumer: DEMAND, orderId }),
    );
    context.step(
      `process ${String(first.pid)} holds the message; waiting for its lease to expire and the other process to get it`,
    );
    const second = await context.waitForJournal(
      'the second process to hold the same message',
      entry({ kind: 'held', consumer: DEMAND, messageId: first.messageId, notPid: first.pid }),
      20_000,
    );
    context.step(`process ${String(second.pid)} holds the same message: releasing both at once`);
    await Promise.all([
      context.lab.release('inventory', { then: 'continue' }),
      context.lab.release('inventory-2', { then: 'continue' }),
    ]);
    await context.waitUntil('both processes to settle the message', async () => {
      const settled = await handledOutcomes(context, DEMAND, first.messageId ?? '');
      return settled.length >= 2 ? settled : undefined;
    });
    const outcomes = await handledOutcomes(context, DEMAND, first.messageId ?? '');
    context.expect(
      'exactly one process applied the message, the other reported a duplicate',
      outcomes.filter((outcome) => outcome === 'applied').length === 1 &&
        outcomes.filter((outcome) => outcome === 'duplicate').length >= 1,
      outcomes.join(', '),
    );
    await context.waitForOrder(orderId, ['confirmed']);
  },
};
