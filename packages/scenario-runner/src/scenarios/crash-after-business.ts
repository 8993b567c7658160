// A crash after the business change, before COMMIT: again nothing survives,
// because the change and the marker are one transaction.
import type { Scenario } from '../scenario.js';
import { DEMAND, REDELIVERY_TIMEOUT_MS, entry, handledOutcomes, maybeJournal } from './support.js';

export const crashAfterBusiness: Scenario = {
  name: 'crash-after-business',
  title: 'Crash after the business change, before the commit',
  summary:
    'inventory-demand-v1 has claimed the message and changed the tally when the process is killed, before COMMIT. Both roll back together; the redelivery applies the message once.',
  async run(context) {
    const sku = await context.freshSku(10);
    await context.lab.armInventory({
      point: 'after-business',
      action: 'crash',
      match: { consumer: DEMAND, eventType: 'OrderPlaced', retryCount: 0 },
    });
    context.step('armed: crash inventory after the business change, before commit');
    const orderId = await context.placeOrder({ sku, quantity: 4 });
    const crash = await context.waitForJournal(
      'the crash',
      entry({ kind: 'crash', consumer: DEMAND, orderId }),
    );
    const settled = await maybeJournal(
      context,
      'the redelivery to be acknowledged',
      entry({ kind: 'acked', consumer: DEMAND, messageId: crash.messageId, afterId: crash.id }),
      REDELIVERY_TIMEOUT_MS,
    );
    await context.waitForOrder(orderId, ['confirmed']);
    const outcomes = await handledOutcomes(context, DEMAND, crash.messageId ?? '');
    context.expect(
      'the redelivery applied the message once',
      settled !== undefined && outcomes.filter((outcome) => outcome === 'applied').length === 1,
      outcomes.join(', ') || 'no settlement',
    );
  },
};
