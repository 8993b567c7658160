// Payment's network to PostgreSQL goes silent for six seconds: no error, no
// answer. Payment stalls (its lease runs out, so the message is handed out
// again), then catches up when the link comes back: every order confirmed,
// charged once, nothing lost.
import type { Scenario } from '../../scenario.js';
import {
  describeLink,
  expectOneEmailEach,
  links,
  placeBurst,
  waitForAll,
} from './network-support.js';

const LINK = 'payment-postgres';
const ORDERS = 3;
const BLACKHOLE_MS = 6_000;

export const dbBlackhole: Scenario = {
  name: 'db-blackhole',
  title: 'Payment’s PostgreSQL link goes silent for 6 s: it stalls, then catches up, nothing lost',
  summary:
    'The fault proxy accepts payment’s PostgreSQL traffic and forwards none of it for six seconds (held, not dropped: TCP never loses bytes on a live connection). Three orders placed meanwhile are reserved but not paid: payment is stuck in a query. When the link comes back the held queries complete, the messages whose lease ran out are delivered again and found done, and every order is confirmed with one authorization and one email.',
  async run(context) {
    const control = links(context);
    const sku = await context.freshSku(ORDERS);
    const applied = await control.applyFault(LINK, { kind: 'blackhole', durationMs: BLACKHOLE_MS });
    const until = Date.parse(
      applied.active.find((fault) => fault.kind === 'blackhole')?.until ?? '',
    );
    context.step(`blackhole on ${LINK} for ${String(BLACKHOLE_MS / 1000)} s`);
    const orderIds = await placeBurst(context, sku, ORDERS);
    context.step(`placed ${String(ORDERS)} orders at once`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now() - 1_000)));
    const stalled = await Promise.all(
      orderIds.map(async (id) => (await context.api.order(id)).status),
    );
    context.step(`a second before the link comes back: ${stalled.join(', ')}`);
    context.expect(
      'no order was confirmed while payment could not reach PostgreSQL',
      stalled.every((status) => status !== 'confirmed'),
      stalled.join(', '),
    );
    await waitForAll(context, orderIds, ['confirmed']);
    context.step(describeLink(await control.link(LINK)));
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
