// Idempotency does not give order. Here inventory sees the customer's
// cancellation before the placement it cancels: the placement is held on
// delivery, unprocessed, until the cancellation has been applied by the other
// inventory process. The order's version rule then makes the late placement
// reserve nothing.
import type { Scenario } from '../scenario.js';
import type { LabService } from '../stack/lab-stack.js';
import { RESERVATION, entry } from './support.js';

export const cancelBeforePlace: Scenario = {
  name: 'cancel-before-place',
  title: 'The cancellation arrives before its placement: nothing is reserved',
  summary:
    'inventory-reservation-v1 holds OrderPlaced on delivery, unprocessed, while the customer cancels; the other inventory process applies the cancellation first and records the order as released. When the placement is released, the transition rule (by the order\u2019s aggregate version) decides it changes nothing. The order is cancelled and the stock never moved.',
  async run(context) {
    const sku = await context.freshSku(5);
    const faults = await context.lab.armInventory({
      point: 'on-delivery',
      action: 'hold',
      match: { consumer: RESERVATION, eventType: 'OrderPlaced' },
    });
    context.step(
      'armed on inventory and inventory-2: hold OrderPlaced on delivery to inventory-reservation-v1',
    );
    const orderId = await context.placeOrder({ sku, quantity: 2 });
    const held = await context.waitForJournal(
      'the placement to be held',
      entry({ kind: 'held', consumer: RESERVATION, orderId }),
    );
    // The other process must stay free to take the cancellation.
    const holder = (await context.lab.status('inventory')).pid === held.pid ? 0 : 1;
    const other: LabService = holder === 0 ? 'inventory-2' : 'inventory';
    await context.lab.disarmFault(other, faults[holder === 0 ? 1 : 0]?.id ?? '');
    await context.api.cancelOrder(orderId);
    context.step('the customer cancelled the order while the placement is held');
    const cancellation = await context.waitForJournal(
      'the cancellation to be applied by inventory',
      entry({
        kind: 'handled',
        consumer: RESERVATION,
        eventType: 'OrderCancellationRequested',
        orderId,
      }),
    );
    await context.lab.release('inventory', { then: 'continue' });
    await context.lab.release('inventory-2', { then: 'continue' });
    context.step('released: the placement is processed, late');
    const late = await context.waitForJournal(
      'the late placement to be handled',
      entry({ kind: 'handled', consumer: RESERVATION, eventType: 'OrderPlaced', orderId }),
      30_000,
    );
    await context.waitForOrder(orderId, ['cancelled']);
    const stock = await context.api.stock(sku);
    context.expect(
      'inventory handled the cancellation before the placement',
      cancellation.id < late.id,
      `cancellation #${String(cancellation.id)}, placement #${String(late.id)}`,
    );
    context.expect(
      'nothing was ever reserved',
      stock.available === 5 && stock.reserved === 0 && stock.consumed === 0,
      JSON.stringify(stock),
    );
  },
};
