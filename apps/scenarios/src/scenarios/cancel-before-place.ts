// Idempotency does not give order. Here inventory sees the customer's
// cancellation before the placement it cancels: the placement is handed back
// unprocessed until the cancellation has been applied. The order's version
// rule then makes the late placement reserve nothing.
import type { Scenario } from '../scenario.js';
import { RESERVATION, entry } from './support.js';

export const cancelBeforePlace: Scenario = {
  name: 'cancel-before-place',
  title: 'The cancellation arrives before its placement: nothing is reserved',
  summary:
    'inventory-reservation-v1 postpones OrderPlaced (hands it back unprocessed) while the customer cancels. The cancellation is applied first and records the order as released; when the placement finally arrives, the transition rule (by the order\u2019s aggregate version) decides it changes nothing. The order is cancelled and the stock never moved.',
  async run(context) {
    const sku = await context.freshSku(5);
    await context.lab.armInventory({
      point: 'on-delivery',
      action: 'postpone',
      match: { consumer: RESERVATION, eventType: 'OrderPlaced' },
      times: 1_000,
    });
    context.step('armed: inventory-reservation-v1 postpones every OrderPlaced');
    const orderId = await context.placeOrder({ sku, quantity: 2 });
    await context.waitForJournal(
      'the placement to be postponed',
      entry({ kind: 'postponed', consumer: RESERVATION, orderId }),
    );
    await context.api.cancelOrder(orderId);
    context.step('the customer cancelled the order');
    await context.waitForJournal(
      'the cancellation to be applied by inventory',
      entry({
        kind: 'acked',
        consumer: RESERVATION,
        eventType: 'OrderCancellationRequested',
        orderId,
      }),
    );
    await context.lab.disarm('inventory');
    await context.lab.disarm('inventory-2');
    context.step('disarmed: the placement may now be processed, late');
    const late = await context.waitForJournal(
      'the late placement to be handled',
      entry({ kind: 'handled', consumer: RESERVATION, eventType: 'OrderPlaced', orderId }),
      30_000,
    );
    await context.waitForOrder(orderId, ['cancelled']);
    const stock = await context.api.stock(sku);
    context.expect(
      'the late placement was handled without error',
      late.detail['outcome'] === 'applied' || late.detail['outcome'] === 'duplicate',
      JSON.stringify(late.detail),
    );
    context.expect(
      'nothing was ever reserved',
      stock.available === 5 && stock.reserved === 0,
      JSON.stringify(stock),
    );
  },
};
