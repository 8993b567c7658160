// The plainest at-least-once case: the store delivers a message the consumer
// already committed. Here the consumer hands it back instead of acknowledging
// (as a lost acknowledgment would); the second delivery is a duplicate.
import type { Scenario } from '../scenario.js';
import { DEMAND, entry, handledOutcomes } from './support.js';

export const duplicateDelivery: Scenario = {
  name: 'duplicate-delivery',
  title: 'One event delivered twice: the second delivery is a duplicate',
  summary:
    'inventory-demand-v1 commits OrderPlaced and then, instead of acknowledging, hands it back to the store, which delivers it again. The claim finds the marker: a duplicate, acknowledged with no second effect.',
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.armInventory({
      point: 'after-commit-before-ack',
      action: 'redeliver',
      match: { consumer: DEMAND, eventType: 'OrderPlaced', retryCount: 0 },
    });
    context.step('armed: hand OrderPlaced back after the commit instead of acknowledging it');
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    const first = await context.waitForJournal(
      'the hand-back',
      entry({ kind: 'handed-back', consumer: DEMAND, orderId }),
    );
    await context.waitForJournal(
      'the second delivery to be acknowledged',
      entry({ kind: 'acked', consumer: DEMAND, messageId: first.messageId }),
    );
    const outcomes = await handledOutcomes(context, DEMAND, first.messageId ?? '');
    context.expect(
      'applied once, every later delivery a duplicate',
      outcomes[0] === 'applied' &&
        outcomes.length >= 2 &&
        outcomes.slice(1).every((outcome) => outcome === 'duplicate'),
      outcomes.join(', '),
    );
    await context.waitForOrder(orderId, ['confirmed']);
  },
};
