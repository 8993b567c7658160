// What the network scenarios share: the supervisor's links, a burst of orders
// placed at once (the load a fault meets), and a look at a link's counters.
import type { LinkStats } from '@effectively-once/fault-proxy/schemas';
import { labControlClient, type LabControlClient } from '../../clients/lab-control-client.js';
import type { ScenarioContext } from '../../scenario.js';

export function links(context: ScenarioContext): LabControlClient {
  return labControlClient(context.stack);
}

/** Places `count` one-unit orders of `sku` at once: the load a fault lands in. */
export function placeBurst(
  context: ScenarioContext,
  sku: string,
  count: number,
): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, () => context.placeOrder({ sku, quantity: 1 })));
}

export async function waitForAll(
  context: ScenarioContext,
  orderIds: readonly string[],
  statuses: readonly string[],
  timeoutMs = 45_000,
): Promise<void> {
  await Promise.all(orderIds.map((id) => context.waitForOrder(id, statuses, timeoutMs)));
}

/** One line of a link's counters for the timeline. */
export function describeLink(link: LinkStats): string {
  const active = link.active.map((fault) => fault.kind).join(', ') || 'none';
  return `${link.name}: ${String(link.openConnections)} open, ${String(link.connections)} accepted, ${String(link.bytesUp)} B up / ${String(link.bytesDown)} B down, ${String(link.resets)} reset, faults in force: ${active}`;
}

/** Each order's confirmation email reached the sink exactly once. */
export async function expectOneEmailEach(
  context: ScenarioContext,
  orderIds: readonly string[],
): Promise<void> {
  for (const orderId of orderIds) {
    const emails = await context.waitUntil(`the email of ${orderId.slice(0, 8)}`, async () => {
      const received = await context.api.emails(orderId);
      return received.length > 0 ? received : undefined;
    });
    context.expect(
      `order ${orderId.slice(0, 8)}: one email in the sink`,
      emails.length === 1,
      `${String(emails.length)} in the sink`,
    );
  }
}
