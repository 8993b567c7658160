// One message id, two consumers in one database. The marker's key is
// (consumer_name, message_id), so each consumer claims the message for
// itself: both apply it, each once.
import type { Scenario } from '../scenario.js';
import { DEMAND, RESERVATION, entry, outcomeOf } from './support.js';

export const oneEventTwoConsumers: Scenario = {
  name: 'one-event-two-consumers',
  title: 'One event, two consumers: both apply it once',
  summary:
    'OrderPlaced goes to inventory-reservation-v1 (stock) and inventory-demand-v1 (tally), both in the inventory database. Each claims (its own name, the same message id) and both apply; neither suppresses the other.',
  async run(context) {
    const sku = await context.freshSku(5);
    // The tally waits until the reservation has committed, so the order in
    // which the two consumers claim is always the same.
    await context.lab.armInventory({
      point: 'before-claim',
      action: 'hold',
      match: { consumer: DEMAND, eventType: 'OrderPlaced' },
    });
    context.step(
      'armed: inventory-demand-v1 holds before its claim until inventory-reservation-v1 is done',
    );
    const orderId = await context.placeOrder({ sku, quantity: 2 });
    const reservation = await context.waitForJournal(
      'inventory-reservation-v1 to settle OrderPlaced',
      entry({ kind: 'handled', consumer: RESERVATION, eventType: 'OrderPlaced', orderId }),
    );
    context.step('inventory-reservation-v1 committed: releasing inventory-demand-v1');
    const demand = await context.waitUntil(
      'inventory-demand-v1 to settle OrderPlaced',
      async () => {
        // A hold taken after a lease expiry is released on the next round too.
        await context.lab.release('inventory', { then: 'continue' });
        await context.lab.release('inventory-2', { then: 'continue' });
        return (await context.journal()).find(
          entry({ kind: 'handled', consumer: DEMAND, eventType: 'OrderPlaced', orderId }),
        );
      },
    );
    context.expect('both received the same message id', reservation.messageId === demand.messageId);
    context.expect(
      'inventory-reservation-v1 applied it',
      outcomeOf(reservation) === 'applied',
      outcomeOf(reservation),
    );
    context.expect(
      'inventory-demand-v1 applied it',
      outcomeOf(demand) === 'applied',
      outcomeOf(demand),
    );
    const stock = await context.api.stock(sku);
    context.expect('the stock was reserved', stock.available === 3, JSON.stringify(stock));
  },
};
