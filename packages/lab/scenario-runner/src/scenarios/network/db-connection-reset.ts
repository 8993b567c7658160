// Connections between both inventory processes and PostgreSQL are reset while
// a burst of orders is reserved: transactions in flight roll back, messages
// come back, and each reservation still happens once. Both processes must
// recover by themselves: a pool that kept a dead connection, or an error that
// escaped and killed a process, would show here.
import type { Scenario } from '../../scenario.js';
import { serviceUrl } from '../../stack/lab-stack.js';
import {
  describeLink,
  expectOneEmailEach,
  links,
  placeBurst,
  waitForAll,
} from './network-support.js';

const LINKS = ['inventory-postgres', 'inventory-2-postgres'] as const;
const ORDERS = 6;
const RESET_WINDOW_MS = 1_500;

export const dbConnectionReset: Scenario = {
  name: 'db-connection-reset',
  title: 'Inventory’s PostgreSQL connections are reset under load: each reservation once',
  summary:
    'While a burst of six orders is being reserved, the fault proxy resets every connection between both inventory processes and PostgreSQL, and for 1.5 s resets each new one as well; then it does it again. Transactions in flight roll back, their messages are not acknowledged and come back; the pools open new connections once the window passes. Every order is confirmed, each reserved once, and both inventory processes answer /ready again.',
  async run(context) {
    const control = links(context);
    const sku = await context.freshSku(ORDERS);
    const resetsBefore = await Promise.all(
      LINKS.map(async (name) => (await control.link(name)).resets),
    );
    const orderIds = await placeBurst(context, sku, ORDERS);
    context.step(`placed ${String(ORDERS)} orders at once`);
    for (const round of [1, 2]) {
      await Promise.all(
        LINKS.map((name) =>
          control.applyFault(name, { kind: 'reset', durationMs: RESET_WINDOW_MS }),
        ),
      );
      context.step(
        `reset ${String(round)}: every inventory connection to PostgreSQL, new ones for 1.5 s`,
      );
      await new Promise((resolve) => setTimeout(resolve, RESET_WINDOW_MS + 500));
    }
    await waitForAll(context, orderIds, ['confirmed'], 50_000);
    const after = await Promise.all(LINKS.map((name) => control.link(name)));
    after.forEach((link) => context.step(describeLink(link)));
    const reset = after.reduce(
      (sum, link, index) => sum + link.resets - (resetsBefore[index] ?? 0),
      0,
    );
    context.expect(
      'the proxy reset inventory’s connections (the fault happened)',
      reset > 0,
      `${String(reset)} connection(s) reset`,
    );
    for (const service of ['inventory', 'inventory-2'] as const) {
      const ready = await context.waitUntil(`${service} to answer /ready`, async () => {
        const response = await fetch(`${serviceUrl(context.stack, service)}/ready`).catch(
          () => undefined,
        );
        return response?.ok === true ? true : undefined;
      });
      context.expect(`${service} recovered: it answers /ready after the resets`, ready);
    }
    const stock = await context.api.stock(sku);
    context.expect(
      'each order reserved its unit once: none left, none over-reserved',
      stock.available === 0,
      JSON.stringify(stock),
    );
    await expectOneEmailEach(context, orderIds);
  },
};
