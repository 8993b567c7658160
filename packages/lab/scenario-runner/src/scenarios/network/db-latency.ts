// A slow network between one service and PostgreSQL: every query of payment
// (its own database and the event store) waits 100 ms each way. Slower is
// not broken: every order of a burst is confirmed, each charged once.
import type { Scenario } from '../../scenario.js';
import {
  describeLink,
  expectOneEmailEach,
  links,
  placeBurst,
  waitForAll,
} from './network-support.js';

const LINK = 'payment-postgres';
const ORDERS = 4;

export const dbLatency: Scenario = {
  name: 'db-latency',
  title: 'PostgreSQL answers payment 100 ms late: orders still complete, each once',
  summary:
    'The fault proxy adds 100 ms each way to every packet between payment and PostgreSQL (its database and the event store) while a burst of four orders arrives. Each claim, business write and acknowledgment takes several round trips longer, and a delivery that outlives the lab’s 3 s lease is handed out again and must be found done. Every order is confirmed with one authorization at the card processor and one email.',
  async run(context) {
    const control = links(context);
    const sku = await context.freshSku(ORDERS);
    const before = await control.link(LINK);
    await control.applyFault(LINK, { kind: 'latency', delayMs: 100, durationMs: 40_000 });
    context.step(`latency: 100 ms each way on ${LINK} for up to 40 s`);
    const orderIds = await placeBurst(context, sku, ORDERS);
    context.step(`placed ${String(ORDERS)} orders at once`);
    await waitForAll(context, orderIds, ['confirmed']);
    const during = await control.link(LINK);
    context.step(describeLink(during));
    context.expect(
      'every order was confirmed while the latency was in force',
      during.active.some((fault) => fault.kind === 'latency'),
      'the latency had cleared before the last order was confirmed',
    );
    context.expect(
      'payment’s queries went through the slowed link',
      during.bytesUp > before.bytesUp && during.bytesDown > before.bytesDown,
      `${String(during.bytesUp - before.bytesUp)} B up, ${String(during.bytesDown - before.bytesDown)} B down`,
    );
    await control.clearFaults(LINK);
    context.step('cleared the latency');
    const ledger = await context.api.ledger();
    for (const orderId of orderIds) {
      const authorizations = ledger.filter((row) => row.idempotencyKey.includes(orderId));
      context.expect(
        `order ${orderId.slice(0, 8)}: one authorization at the card processor`,
        authorizations.length === 1,
        `${String(authorizations.length)} authorization(s)`,
      );
    }
    await expectOneEmailEach(context, orderIds);
  },
};
