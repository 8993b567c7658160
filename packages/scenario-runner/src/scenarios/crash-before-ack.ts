// The pattern's own timeline: the consumer commits, dies before it can
// acknowledge, and the message comes back. The marker committed with the
// tally, so the redelivery is a duplicate, acknowledged without a second effect.
import type { Scenario } from '../scenario.js';
import { DEMAND, REDELIVERY_TIMEOUT_MS, entry, handledOutcomes, maybeJournal } from './support.js';

export const crashBeforeAck: Scenario = {
  name: 'crash-before-ack',
  title: 'Commit, crash before the acknowledgment, redelivery skipped as a duplicate',
  summary:
    'inventory-demand-v1 commits its tally and marker, then the process is killed (SIGKILL) before it acknowledges. The supervisor restarts it; the store delivers the message again; the claim finds the marker and the redelivery is a duplicate. The tally counts the order once.',
  async run(context) {
    const sku = await context.freshSku(10);
    await context.lab.armInventory({
      point: 'after-commit-before-ack',
      action: 'crash',
      match: { consumer: DEMAND, eventType: 'OrderPlaced', retryCount: 0 },
    });
    context.step(
      'armed: crash inventory after commit, before ack (first delivery of OrderPlaced to inventory-demand-v1)',
    );
    const orderId = await context.placeOrder({ sku, quantity: 2 });
    const crash = await context.waitForJournal(
      'the crash',
      entry({ kind: 'crash', consumer: DEMAND, orderId }),
    );
    const messageId = crash.messageId;
    const redelivered = await maybeJournal(
      context,
      'the redelivery to be acknowledged',
      entry({ kind: 'acked', consumer: DEMAND, messageId, afterId: crash.id }),
      REDELIVERY_TIMEOUT_MS,
    );
    await context.waitForOrder(orderId, ['confirmed']);
    const outcomes = await handledOutcomes(context, DEMAND, messageId ?? '');
    context.expect(
      'the first delivery committed before the crash',
      outcomes[0] === 'applied',
      outcomes.join(', '),
    );
    context.expect(
      'the redelivery after the restart was a duplicate',
      redelivered !== undefined && outcomes[1] === 'duplicate',
      outcomes.join(', '),
    );
  },
};
