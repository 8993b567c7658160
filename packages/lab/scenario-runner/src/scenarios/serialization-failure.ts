// SQLSTATE 40001 inside the consumer's transaction: the whole transaction is
// retried from the top, claim included, under the same message id. Retrying
// only the failed statement would be wrong: the transaction is already aborted.
import type { Scenario } from '../scenario.js';
import { DEMAND, entry } from './support.js';

export const serializationFailure: Scenario = {
  name: 'serialization-failure',
  title: 'A serialization failure, retried from the transaction boundary with the same message id',
  summary:
    'PostgreSQL aborts inventory-demand-v1\u2019s transaction with SQLSTATE 40001 right after its claim. processOnce rolls back and runs the whole transaction again, claim first, with the same message id; the second attempt applies. Nothing is acknowledged until it has.',
  async run(context) {
    const sku = await context.freshSku(10);
    await context.lab.armInventory({
      point: 'after-claim',
      action: 'serialization-failure',
      match: { consumer: DEMAND, eventType: 'OrderPlaced', retryCount: 0 },
    });
    context.step(
      'armed: raise SQLSTATE 40001 after the claim (first delivery of OrderPlaced to inventory-demand-v1)',
    );
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    const fault = await context.waitForJournal(
      'the injected failure',
      entry({ kind: 'fault', consumer: DEMAND, orderId }),
    );
    const handled = await context.waitForJournal(
      'the message to be handled',
      entry({ kind: 'handled', consumer: DEMAND, messageId: fault.messageId }),
    );
    const ack = await context.waitForJournal(
      'the acknowledgment',
      entry({ kind: 'acked', consumer: DEMAND, messageId: fault.messageId, pid: fault.pid }),
    );
    // Counted in the process that met the fault: a lease expiring on a slow
    // machine may add a delivery elsewhere, which must then be a duplicate.
    const attempts = (await context.journal())
      .filter(
        entry({ kind: 'claimed', consumer: DEMAND, messageId: fault.messageId, pid: fault.pid }),
      )
      .map((claim) => claim.detail['attempt']);
    context.expect(
      'the whole transaction ran again, claim included, with the same message id',
      attempts.includes(1) && attempts.includes(2),
      `claims in attempts ${attempts.join(', ')}`,
    );
    context.expect(
      'the second attempt applied',
      handled.detail['outcome'] === 'applied' && handled.detail['attempts'] === 2,
      JSON.stringify(handled.detail),
    );
    context.expect(
      'it was acknowledged only after the second attempt committed',
      ack.id > handled.id && ack.detail['outcome'] === 'applied',
      JSON.stringify(ack.detail),
    );
    await context.waitForOrder(orderId, ['confirmed']);
  },
};
