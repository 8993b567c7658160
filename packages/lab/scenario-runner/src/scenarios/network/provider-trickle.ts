// The card processor's link slowed to a trickle: each authorization's request
// and answer crawl through at 600 bytes a second, close to payment's 2 s
// timeout. A call that times out after the processor acted is repeated under
// the same idempotency key and gets the stored answer; either way, one
// authorization per order.
import type { Scenario } from '../../scenario.js';
import {
  describeLink,
  expectOneEmailEach,
  links,
  placeBurst,
  waitForAll,
} from './network-support.js';

const LINK = 'payment-provider';
const ORDERS = 3;

export const providerTrickle: Scenario = {
  name: 'provider-trickle',
  title: 'The card processor’s link trickles at 600 B/s: orders are paid slowly, each once',
  summary:
    'The fault proxy lets at most 600 bytes a second through between payment and the card processor, in each direction, while three orders arrive. Every authorization call takes about a second instead of milliseconds; one that outlives payment’s 2 s timeout is retried under the same idempotency key, and the processor answers with the authorization it already made. Every order is confirmed with exactly one authorization and one email.',
  async run(context) {
    const control = links(context);
    const sku = await context.freshSku(ORDERS);
    const before = await control.link(LINK);
    await control.applyFault(LINK, { kind: 'trickle', bytesPerSecond: 600, durationMs: 40_000 });
    context.step(`trickle: 600 B/s each way on ${LINK} for up to 40 s`);
    const orderIds = await placeBurst(context, sku, ORDERS);
    await waitForAll(context, orderIds, ['confirmed']);
    const during = await control.link(LINK);
    context.step(describeLink(during));
    context.expect(
      'every order was paid while the trickle was in force',
      during.active.some((fault) => fault.kind === 'trickle'),
      'the trickle had cleared before the last order was confirmed',
    );
    context.expect(
      'the authorizations went through the trickling link',
      during.bytesUp > before.bytesUp && during.bytesDown > before.bytesDown,
      `${String(during.bytesUp - before.bytesUp)} B up, ${String(during.bytesDown - before.bytesDown)} B down`,
    );
    await control.clearFaults(LINK);
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
