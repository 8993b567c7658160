// A poison message of the other kind: one no code can handle, because its
// payload breaks the contract. Retrying cannot help, so it is parked at once,
// as a terminal failure with the contract violation as its reason, and the
// messages behind it keep flowing. It stays parked until an operator decides.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import type { Scenario } from '../scenario.js';
import { RESERVATION, entry } from './support.js';

export const malformedEvent: Scenario = {
  name: 'malformed-event',
  title: 'A malformed event is parked at once as a terminal failure; the rest keeps flowing',
  summary:
    'An OrderPlaced whose line has quantity 0 (the contract requires at least 1) is appended to a fresh order stream, as a buggy producer would. inventory-reservation-v1 parses it against the contract, parks it on its first delivery with the violation as the reason, and goes on: an order placed right after it is confirmed.',
  async run(context) {
    const sku = await context.freshSku(5);
    const poisonOrderId = randomUUID();
    const poisonId = randomUUID();
    const store = await context.openStore();
    try {
      // eslint-disable-next-line effectively-once/no-event-store-append -- the scenario plays a buggy producer that writes a stream directly, bypassing the outbox.
      await store.appendToStream(
        orderStream(poisonOrderId),
        [
          {
            id: poisonId,
            type: 'OrderPlaced',
            data: {
              orderId: poisonOrderId,
              customerEmail: 'lab@example.com',
              items: [{ sku: 'SKU-LAB-POISON', quantity: 0 }],
              paymentToken: 'tok_approve',
              amountCents: 0,
              placedAt: new Date().toISOString(),
            },
            metadata: { schemaVersion: 1, correlationId: poisonOrderId },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    } finally {
      await store.close();
    }
    context.step(
      `appended a malformed OrderPlaced ${poisonId.slice(0, 8)} (quantity 0) to a fresh order stream`,
    );
    const healthy = await context.placeOrder({ sku, quantity: 1 });
    const parked = await context.waitForJournal(
      'the malformed event to be parked',
      entry({ kind: 'parked', consumer: RESERVATION, messageId: poisonId }),
    );
    const reason = typeof parked.detail['reason'] === 'string' ? parked.detail['reason'] : '';
    context.expect(
      'it was parked on its first delivery, without retries',
      parked.detail['outcome'] === 'terminal_failure' &&
        (await context.journal()).filter(
          entry({ kind: 'handed-back', consumer: RESERVATION, messageId: poisonId }),
        ).length === 0,
      JSON.stringify(parked.detail),
    );
    context.expect(
      'the reason names the contract violation',
      reason.includes('contract violation'),
      reason,
    );
    await context.waitForOrder(healthy, ['confirmed']);
    const list = await context.api.parked('inventory');
    context.expect(
      'the operator sees it parked, with its original id',
      list.parked.some((message) => message.eventId === poisonId),
    );
  },
};
