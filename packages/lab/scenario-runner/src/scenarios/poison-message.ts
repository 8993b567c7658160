// A message that fails every time it is handled (a bug this message
// triggers). It is retried a bounded number of times and parked with its
// reason; orders behind it keep flowing. Once the cause is fixed, replaying
// it redelivers the original message id, and it is applied once.
import type { Scenario } from '../scenario.js';
import { RESERVATION, entry } from './support.js';

export const poisonMessage: Scenario = {
  name: 'poison-message',
  title:
    'A poison message is parked after the retry limit, the rest flows, and a replay applies it once',
  summary:
    'One order\u2019s OrderPlaced fails in inventory-reservation-v1 every time. After the retry limit (5 in the lab) the store parks it with its reason; a second order placed meanwhile is confirmed. The fault is then removed (the fix) and the parked message replayed: it comes back with its original id and is applied once; the first order is confirmed.',
  async run(context) {
    const sku = await context.freshSku(10);
    const holds = await context.lab.armInventory({
      point: 'on-delivery',
      action: 'hold',
      match: { consumer: RESERVATION, eventType: 'OrderPlaced' },
    });
    const poisoned = await context.placeOrder({ sku, quantity: 1 });
    const held = await context.waitForJournal(
      'the placement to be held',
      entry({ kind: 'held', consumer: RESERVATION, orderId: poisoned }),
    );
    const messageId = held.messageId ?? '';
    // Only this message is poison: the other process's hold must not catch the next order.
    await Promise.all([
      context.lab.disarmFault('inventory', holds[0]?.id ?? ''),
      context.lab.disarmFault('inventory-2', holds[1]?.id ?? ''),
    ]);
    await context.lab.armInventory({
      point: 'before-claim',
      action: 'fail',
      match: { consumer: RESERVATION, messageId },
      times: 1_000,
      reason: 'simulated bug: this message always fails',
    });
    context.step(
      `armed: OrderPlaced ${messageId.slice(0, 8)} now fails every time in inventory-reservation-v1`,
    );
    await context.lab.release('inventory', { then: 'continue' });
    await context.lab.release('inventory-2', { then: 'continue' });
    const healthy = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForOrder(healthy, ['confirmed'], 60_000);
    // The store parks a message that ran out of retries; the operator sees it in the parked list.
    const list = await context.waitUntil(
      'the poison message to be parked',
      async () => {
        const parked = await context.api.parked('inventory');
        return parked.parked.some((message) => message.eventId === messageId) ? parked : undefined;
      },
      90_000,
    );
    const reason = list.parked.find((message) => message.eventId === messageId)?.reason ?? '';
    context.step(`parked by the store with its original id (${reason})`);
    const failures = (await context.journal()).filter(
      entry({ kind: 'handed-back', consumer: RESERVATION, messageId }),
    );
    context.expect(
      'it was retried before being parked',
      failures.length >= 1,
      `${String(failures.length)} failed attempts`,
    );
    const lastFailure = Math.max(0, ...failures.map((failure) => failure.id));
    await context.lab.disarm('inventory');
    await context.lab.disarm('inventory-2');
    context.step('the bug is fixed (fault disarmed); replaying the parked messages');
    const replayed = await context.api.replayParked('inventory');
    context.step(`replayed ${String(replayed.replayed)} parked message(s)`);
    const applied = await context.waitForJournal(
      'the replay to be applied',
      entry({ kind: 'handled', consumer: RESERVATION, messageId, afterId: lastFailure }),
    );
    context.expect(
      'the replay carried the original message id and was applied',
      applied.detail['outcome'] === 'applied',
      JSON.stringify(applied.detail),
    );
    await context.waitForOrder(poisoned, ['confirmed'], 60_000);
  },
};
