// Production shape under fire: every saga service runs as two replicas
// (STACK_REPLICAS), orders flow steadily (approved and declined cards, some
// cancelled by their customer), and a random replica is SIGKILLed every few
// seconds. The replicas share each consumer group, so a killed replica's
// leases go to the other, and the gateway steps around the dead one; the
// supervisor starts it again. Every order ends as documented, every invariant
// holds, nothing is parked, and each group's deliveries came from both.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONSUMERS } from '@effectively-once/contracts';
import { outagesClient } from '../../clients/outages-client.js';
import type { Scenario, ScenarioContext } from '../../scenario.js';
import { waitForLastEffects, waitForTerminal } from './order-load.js';

const ORDERS = 24;
const ORDER_INTERVAL_MS = 250;
const KILL_EVERY_MS = 1_500;
const REPLICATED = ['order', 'inventory', 'payment', 'notification'] as const;
/** Every third card is declined; every fifth order is cancelled by its customer. */
const tokenFor = (index: number): string => (index % 3 === 2 ? 'tok_decline' : 'tok_approve');
const cancels = (index: number): boolean => index % 5 === 4;

/** A replica process of a saga service: `payment`, `payment-2`, … (not `payment-provider`). */
const isReplica = (name: string): boolean =>
  REPLICATED.some((service) => new RegExp(`^${service}(-\\d+)?$`).test(name));

/** Places one order, asking again under its key while the answer says nothing (a 5xx, a cut). */
async function placeRetrying(
  context: ScenarioContext,
  sku: string,
  index: number,
): Promise<string> {
  const idempotencyKey = randomUUID();
  for (let tries = 1; ; tries++) {
    try {
      return await context.placeOrder({
        sku,
        quantity: 1,
        paymentToken: tokenFor(index),
        idempotencyKey,
      });
    } catch (error) {
      if (tries >= 40) throw error;
      await sleep(250);
    }
  }
}

export const replicasChaos: Scenario = {
  name: 'replicas-chaos',
  title:
    'Two replicas of every saga service, one SIGKILLed every few seconds: every order ends once',
  summary: `Every saga service runs as two processes. ${String(ORDERS)} orders are placed steadily, every third with a declined card and every fifth cancelled by its customer, while a random replica is SIGKILLed every ${String(KILL_EVERY_MS / 1000)} s. The other replica takes its leases, the gateway steps around it and the supervisor starts it again: every order ends once, every invariant holds, nothing is parked, and each consumer group's deliveries came from more than one process.`,
  stackEnv: { STACK_REPLICAS: 'order=2,inventory=2,payment=2,notification=2' },
  infrastructure: true,
  async run(context) {
    const outages = outagesClient(context.stack);
    const sku = await context.freshSku(ORDERS);
    const names = (await outages.processes()).map((process) => process.name).filter(isReplica);
    context.expect(
      'every saga service runs as two processes',
      REPLICATED.every((service) => names.includes(`${service}-2`)),
      names.join(', '),
    );
    /** Which replica each pid was: the journals name a process by its service and pid. */
    const replicaOfPid = new Map<number, string>();
    const learnPids = async () => {
      for (const process of await outages.processes()) {
        if (process.pid !== null && isReplica(process.name))
          replicaOfPid.set(process.pid, process.name);
      }
    };
    await learnPids();

    const killing = new AbortController();
    // A function, not the property: the loop must read it again after each await.
    const stopped = (): boolean => killing.signal.aborted;
    const killed: string[] = [];
    const chaos = (async () => {
      while (!stopped()) {
        await sleep(KILL_EVERY_MS, undefined, { signal: killing.signal }).catch(() => undefined);
        if (stopped()) return;
        await learnPids();
        const victim = names[Math.floor(Math.random() * names.length)] ?? 'order';
        await outages.killProcess(victim);
        killed.push(victim);
        context.step(`SIGKILL ${victim}`);
      }
    })();
    const placing: Promise<string>[] = [];
    for (let index = 0; index < ORDERS; index++) {
      // A customer who cancels does so as soon as the order is acknowledged, racing the saga.
      const placed = placeRetrying(context, sku, index);
      placing.push(
        cancels(index)
          ? placed.then(async (orderId) => {
              await context.api.cancelOrder(orderId).catch(() => undefined);
              return orderId;
            })
          : placed,
      );
      await sleep(ORDER_INTERVAL_MS);
    }
    const orderIds = await Promise.all(placing);
    await sleep(2 * KILL_EVERY_MS);
    killing.abort();
    await chaos;
    await learnPids();
    context.step(`killed ${String(killed.length)} times: ${killed.join(', ')}`);

    const confirmed = await waitForTerminal(context, orderIds, 120_000);
    await waitForLastEffects(context, orderIds, 120_000);
    context.step(
      `${String(confirmed)} of ${String(orderIds.length)} orders confirmed, the rest cancelled`,
    );
    context.expect('a replica was killed more than once', killed.length > 1, String(killed.length));

    const delivered = (await context.journal()).filter((entry) => entry.kind === 'delivered');
    for (const consumer of [
      CONSUMERS.inventoryReservation,
      CONSUMERS.paymentAuthorization,
      CONSUMERS.orderSaga,
      CONSUMERS.notificationEmail,
    ]) {
      const replicas = new Set(
        delivered
          .filter((entry) => entry.consumer === consumer)
          .map((entry) => replicaOfPid.get(entry.pid))
          .filter((name) => name !== undefined),
      );
      context.expect(
        `${consumer}'s deliveries came from more than one replica`,
        replicas.size > 1,
        [...replicas].join(', '),
      );
    }
  },
};
