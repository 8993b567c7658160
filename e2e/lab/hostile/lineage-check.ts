// How the hostile-events test observes an outcome: the order's lineage (the
// console's GET /api/orders/{id}/lineage) lists every message of the order's
// streams with each receiving consumer's state: parked (with its reason),
// applied, ignored, blocked, retrying or pending.
import { OrderLineage, type LineageDelivery } from '@effectively-once/contracts';
import { parkedReasonFor, type HostilePlan } from './hostile-events.js';

/** A consumer that has let go of a message: nothing of it is in flight any more. */
const SETTLED: readonly LineageDelivery['state'][] = ['parked', 'applied', 'ignored'];

async function readLineage(gatewayUrl: string, orderId: string): Promise<OrderLineage | undefined> {
  const response = await fetch(`${gatewayUrl}/api/orders/${orderId}/lineage`);
  if (response.status === 404) return undefined;
  if (!response.ok) {
    throw new Error(
      `lineage of ${orderId} answered ${String(response.status)}: ${await response.text()}`,
    );
  }
  return OrderLineage.parse(await response.json());
}

const describeDelivery = (delivery: LineageDelivery) =>
  `${delivery.consumer}: ${delivery.state}${delivery.parked === null ? '' : ` (${delivery.parked.reason ?? 'no reason'})`}`;

/** What is not yet as the plan says; empty when every hostile event and all it caused has settled as expected. */
export function settledProblems(plan: HostilePlan, lineage: OrderLineage | undefined): string[] {
  const problems: string[] = [];
  const where = `${plan.kind} "${plan.description}" (order ${plan.orderId})`;
  const messages = lineage?.messages ?? [];
  for (const append of plan.appends) {
    if (append.expected.kind === 'refused') continue;
    const message = messages.find((candidate) => candidate.eventId === append.event.id);
    if (message === undefined) {
      problems.push(`${where}: ${append.event.type} ${append.event.id} is not in the lineage`);
      continue;
    }
    const { deliveries } = message;
    switch (append.expected.kind) {
      case 'received-by-none':
        if (deliveries.length > 0)
          problems.push(`${where}: delivered to ${deliveries.map(describeDelivery).join('; ')}`);
        break;
      case 'parked': {
        const expected = append.expected;
        const wrong = deliveries.filter((delivery) => {
          const reason = parkedReasonFor(expected, delivery.consumer);
          return (
            reason === undefined ||
            delivery.state !== 'parked' ||
            !(delivery.parked?.reason ?? '').includes(reason)
          );
        });
        if (deliveries.length === 0) problems.push(`${where}: no consumer receives it`);
        if (wrong.length > 0)
          problems.push(
            `${where}: not parked with ${JSON.stringify(expected.reason)} by ${wrong.map(describeDelivery).join('; ')}`,
          );
        if (typeof expected.reason !== 'string') {
          const receivers = new Set(deliveries.map((delivery) => delivery.consumer));
          const missing = Object.keys(expected.reason).filter((name) => !receivers.has(name));
          if (missing.length > 0) problems.push(`${where}: not delivered to ${missing.join(', ')}`);
        }
        break;
      }
      case 'settled':
        break;
    }
  }
  // Whatever the hostile events caused settles too: no consumer keeps a
  // message of this order in flight, and a parked one says why.
  for (const message of messages) {
    for (const delivery of message.deliveries) {
      const unsettled = !SETTLED.includes(delivery.state);
      const silent = delivery.state === 'parked' && (delivery.parked?.reason ?? '') === '';
      if (unsettled || silent)
        problems.push(
          `${where}: ${message.type} ${message.eventId} is ${describeDelivery(delivery)}`,
        );
    }
  }
  return problems;
}

/** Polls the order's lineage until `done` accepts it, or returns the last one at the deadline. */
export async function waitForLineage(
  gatewayUrl: string,
  plan: HostilePlan,
  done: (lineage: OrderLineage | undefined) => boolean,
  timeoutMs: number,
): Promise<OrderLineage | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lineage = await readLineage(gatewayUrl, plan.orderId);
    if (done(lineage) || Date.now() > deadline) return lineage;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
