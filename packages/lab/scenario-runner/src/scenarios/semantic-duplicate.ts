// The same business fact under a new message id, as a producer bug or a
// hand-rebuilt event would emit it. The marker cannot help (the id is new);
// the business state can: inventory keeps one decision per order
// (inventory_order, keyed by order id, with the order's version), so the copy
// changes no stock.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import type { Scenario } from '../scenario.js';
import { DEMAND, PAYMENT, RESERVATION, entry, outcomeOf } from './support.js';

export const semanticDuplicate: Scenario = {
  name: 'semantic-duplicate',
  title: 'A semantic duplicate (a new message id for the same fact) is blocked by the business key',
  summary:
    'While an order waits for its payment, a copy of its OrderPlaced is appended to the order stream under a new event id. inventory-reservation-v1 claims the new id (the marker cannot know better) but its business state, one row per order in inventory_order, decides the placement changes nothing: the stock does not move. inventory-demand-v1, a tally with no business key, counts the copy: the lesson is why the reservation has one.',
  async run(context) {
    const sku = await context.freshSku(5);
    // The payment waits, so the copy lands while the order is still in flight,
    // as a producer bug's copy would.
    await context.lab.arm('payment', {
      point: 'on-delivery',
      action: 'hold',
      match: { consumer: PAYMENT, eventType: 'OrderPaymentRequested' },
    });
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForJournal(
      'the payment to be held',
      entry({ kind: 'held', consumer: PAYMENT, orderId }),
    );
    const before = await context.api.stock(sku);
    const store = await context.openStore();
    const copyId = randomUUID();
    try {
      const events = await store.readStream(orderStream(orderId));
      const placed = events.find((event) => event.type === 'OrderPlaced');
      if (placed === undefined) throw new Error(`Order ${orderId} has no OrderPlaced.`);
      // eslint-disable-next-line effectively-once/no-event-store-append -- the scenario plays a producer bug: a copy of an event under a new id, written straight to the stream.
      await store.appendToStream(
        orderStream(orderId),
        [{ id: copyId, type: placed.type, data: placed.data, metadata: placed.metadata }],
        { expectedRevision: 'any' },
      );
    } finally {
      await store.close();
    }
    context.step(
      `appended a copy of OrderPlaced with the new id ${copyId.slice(0, 8)} (a producer bug)`,
    );
    const handled = await context.waitForJournal(
      'inventory-reservation-v1 to settle the copy',
      entry({ kind: 'handled', consumer: RESERVATION, messageId: copyId }),
    );
    await context.lab.release('payment', { then: 'continue' });
    await context.waitForOrder(orderId, ['confirmed']);
    // The confirmation consumes the reservation a moment after the order is confirmed.
    const after = await context.waitUntil('the reservation to be consumed', async () => {
      const stock = await context.api.stock(sku);
      return stock.reserved === 0 ? stock : undefined;
    });
    context.step(`inventory-reservation-v1 settled the copy: ${outcomeOf(handled) ?? 'unknown'}`);
    context.expect(
      'the copy reserved nothing more: the order\u2019s one reservation was consumed',
      after.available === before.available && after.reserved === 0 && after.consumed === 1,
      `before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`,
    );
    const tally = await context.waitForJournal(
      'inventory-demand-v1 to settle the copy',
      entry({ kind: 'handled', consumer: DEMAND, messageId: copyId }),
    );
    context.step(
      `inventory-demand-v1 ${outcomeOf(tally) ?? 'settled'} the copy: a tally has no business key to recognise the same fact`,
    );
  },
};
