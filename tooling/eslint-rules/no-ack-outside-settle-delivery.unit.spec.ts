import plugin from './index.js';
import { ruleTester } from './rule-tester.js';

const rule = plugin.rules['no-ack-outside-settle-delivery'];

// Must pass: the shape of packages/idempotency/src/settle-delivery.ts, and a
// consumer that settles through it.
const settleDeliveryItself = `
export async function settleDelivery(delivery: Delivery, process: () => Promise<unknown>) {
  let result: unknown;
  try {
    result = await process();
  } catch (error) {
    await delivery.nack('retry', String(error));
    return { action: 'retry' };
  }
  await delivery.ack();
  return { action: 'ack', result };
}`;
const consumerThroughSettle = `
for await (const delivery of store.subscribeToGroup(CONSUMERS.orderSaga)) {
  await settleDelivery(delivery, () => processOnce({ db, consumer, message, work }));
}`;

// Must fail: the consumer that acknowledges by hand, before or after its work.
const ackBeforeWork = `
for await (const delivery of store.subscribeToGroup(CONSUMERS.orderSaga)) {
  await delivery.ack();
  await processOnce({ db, consumer, message: delivery.event, work });
}`;
const ackInAHelper = `
const acknowledge = async (delivery: Delivery) => {
  await delivery?.ack();
};`;
const ackDestructured = `
export async function handle({ ack }: Delivery) {
  await ack();
}`;

ruleTester.run('no-ack-outside-settle-delivery', rule, {
  valid: [
    { name: 'settleDelivery acknowledges', code: settleDeliveryItself },
    { name: 'a consumer settles through settleDelivery', code: consumerThroughSettle },
    {
      name: 'another settling function, when allowed by option',
      code: 'const settleBatch = async (d: Delivery) => { await d.ack(); };',
      options: [{ allowIn: ['settleBatch'] }],
    },
  ],
  invalid: [
    {
      name: 'a consumer acknowledges before processing',
      code: ackBeforeWork,
      errors: [{ messageId: 'ackOutsideSettle' }],
    },
    {
      name: 'a helper acknowledges through optional chaining',
      code: ackInAHelper,
      errors: [{ messageId: 'ackOutsideSettle' }],
    },
    {
      name: 'ack() taken off the delivery',
      code: ackDestructured,
      errors: [{ messageId: 'ackOutsideSettle' }],
    },
  ],
});
