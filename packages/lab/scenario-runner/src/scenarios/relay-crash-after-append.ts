// The outbox relay appends an event, then dies before it marks the row sent.
// The restarted relay appends the row again, with the row's stable event id;
// the store keeps an event id once, so the stream still holds one event.
import { inventoryStream } from '@effectively-once/contracts';
import type { Scenario } from '../scenario.js';
import { entry } from './support.js';

export const relayCrashAfterAppend: Scenario = {
  name: 'relay-crash-after-append',
  title: 'The outbox relay crashes after the append, before marking the row sent',
  summary:
    'inventory\u2019s relay appends InventoryReserved to the event store and is killed before it marks the outbox row sent. After the restart it appends the same row again under the same event id; the store accepts it as a no-op. The inventory stream holds one InventoryReserved, and the order is confirmed.',
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.arm('inventory', {
      point: 'after-relay-append',
      action: 'crash',
      match: { eventType: 'InventoryReserved' },
    });
    context.step('armed: crash inventory\u2019s outbox relay after it appended InventoryReserved');
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    const crash = await context.waitForJournal(
      'the relay crash',
      entry({ kind: 'crash', orderId }),
      30_000,
    );
    await context.waitForJournal(
      'the restarted relay to append the row again',
      entry({ kind: 'relay-appended', eventType: 'InventoryReserved', orderId, afterId: crash.id }),
      30_000,
    );
    await context.waitForOrder(orderId, ['confirmed']);
    const store = await context.openStore();
    try {
      const events = await store.readStream(inventoryStream(orderId));
      const reserved = events.filter((event) => event.type === 'InventoryReserved');
      context.expect(
        'the stream holds one InventoryReserved',
        reserved.length === 1,
        `${String(reserved.length)} events`,
      );
    } finally {
      await store.close();
    }
    const appends = (await context.journal()).filter(
      entry({ kind: 'relay-appended', eventType: 'InventoryReserved', orderId }),
    );
    context.step(
      `the relay appended the row ${String(appends.length)} times; the store kept one event`,
    );
  },
};
