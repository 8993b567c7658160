// A crash inside the transaction, after the marker INSERT and before the
// business change: PostgreSQL rolls both back with the dead connection, so
// the redelivery claims the message again and applies it, once.
import type { Scenario } from '../scenario.js';
import { DEMAND, REDELIVERY_TIMEOUT_MS, entry, handledOutcomes, maybeJournal } from './support.js';

export const crashAfterClaim: Scenario = {
  name: 'crash-after-claim',
  title: 'Crash after the claim, before the business change',
  summary:
    'inventory-demand-v1 inserts its marker and the process is killed before the tally changes. The open transaction dies with the connection: no marker, no tally. The redelivery claims the message again and applies it once.',
  async run(context) {
    const sku = await context.freshSku(10);
    await context.lab.armInventory({
      point: 'after-claim',
      action: 'crash',
      match: { consumer: DEMAND, eventType: 'OrderPlaced', retryCount: 0 },
    });
    context.step(
      'armed: crash inventory right after the claim (first delivery of OrderPlaced to inventory-demand-v1)',
    );
    const orderId = await context.placeOrder({ sku, quantity: 3 });
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
      'the redelivery applied the message (the crashed attempt left nothing behind)',
      settled !== undefined && outcomes.at(-1) === 'applied',
      outcomes.join(', ') || 'no settlement',
    );
  },
};
