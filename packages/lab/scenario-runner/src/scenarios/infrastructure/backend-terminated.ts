// The server ends the services' sessions under them, as an operator's
// pg_terminate_backend, a pooler's recycle or a failover would: every pool,
// subscription session and relay lock must notice, reconnect and carry on,
// and no message may be lost or applied twice on the way.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Scenario, ScenarioContext } from '../../scenario.js';
import { expectNoRestart, processStarts } from './process-starts.js';
import {
  placeSteadyOrders,
  waitForLastEffects,
  waitForServicesReady,
  waitForTerminal,
} from './order-load.js';
import {
  openAdmin,
  serviceSessions,
  stackDatabaseNames,
  terminateBackends,
} from './stack-sessions.js';

const ORDERS = 16;
const ORDER_INTERVAL_MS = 400;
const ROUND_MS = 500;
/** Each round ends about this share of the service sessions it finds. */
const SHARE = 0.35;
/**
 * The sessions that hold state of their own (a LISTEN, a session advisory
 * lock): every few rounds all of them go at once, so the reconnect of each
 * kind is exercised, not only the pools' that a random pick hits most.
 */
const LISTENERS = new Set(['event-store-consumer', 'event-store-catch-up', 'outbox-relay']);
const LISTENER_ROUND_EVERY = 4;

/** Terminates sessions every ROUND_MS until `stop` resolves; counts them by application name. */
async function storm(
  context: ScenarioContext,
  stop: Promise<unknown>,
): Promise<Map<string, number>> {
  const admin = openAdmin(context.stack);
  const databases = stackDatabaseNames(context.stack);
  const ended = new Map<string, number>();
  // An object, so the loop re-reads what the promise's callback sets.
  const storming = { on: true };
  void stop.finally(() => (storming.on = false));
  try {
    for (let round = 1; storming.on; round++) {
      const sessions = await serviceSessions(admin, databases);
      const everyListener = round % LISTENER_ROUND_EVERY === 0;
      const picked = sessions.filter((session) =>
        everyListener ? LISTENERS.has(session.applicationName) : Math.random() < SHARE,
      );
      const terminated = new Set(
        await terminateBackends(
          admin,
          picked.map((s) => s.pid),
        ),
      );
      for (const session of picked.filter((candidate) => terminated.has(candidate.pid))) {
        ended.set(session.applicationName, (ended.get(session.applicationName) ?? 0) + 1);
      }
      if (everyListener)
        context.step(
          `round ${String(round)}: terminated all ${String(terminated.size)} listening sessions`,
        );
      await sleep(ROUND_MS);
    }
  } finally {
    await admin.destroy();
  }
  return ended;
}

export const backendTerminated: Scenario = {
  name: 'backend-terminated',
  title: 'The server terminates the services’ PostgreSQL sessions while orders flow',
  summary:
    'While orders are placed at a steady rate, the runner ends about a third of the services’ PostgreSQL sessions every half second with pg_terminate_backend (found in pg_stat_activity by database and application_name), and every fourth round all the listening sessions: subscriptions and outbox relays. Pools drop the dead connections, subscriptions and relays reconnect, a client retries a POST that failed under the same key, and every order ends confirmed with each effect once.',
  infrastructure: true,
  async run(context) {
    const sku = await context.freshSku(ORDERS);
    const starts = await processStarts(context);
    let stopStorm: () => void = () => undefined;
    const stormOver = new Promise<void>((resolve) => (stopStorm = resolve));
    const terminating = storm(context, stormOver);
    context.step('terminating service sessions every 500 ms while orders are placed');
    let load;
    try {
      load = await placeSteadyOrders(context, {
        sku,
        count: ORDERS,
        intervalMs: ORDER_INTERVAL_MS,
      });
    } finally {
      stopStorm();
    }
    const ended = await terminating;
    const total = [...ended.values()].reduce((sum, count) => sum + count, 0);
    context.step(
      `terminated ${String(total)} sessions: ${[...ended].map(([name, count]) => `${name} ${String(count)}`).join(', ')}; the client retried ${String(load.retried)} POSTs`,
    );
    context.expect('the storm ended at least 10 service sessions', total >= 10, String(total));
    for (const listener of ['event-store-consumer', 'outbox-relay']) {
      context.expect(
        `at least one ${listener} session was terminated`,
        (ended.get(listener) ?? 0) > 0,
      );
    }
    await waitForServicesReady(context);
    context.step('every saga service answers /ready again');
    await expectNoRestart(context, starts);
    const confirmed = await waitForTerminal(context, load.orderIds);
    context.expect(
      `all ${String(ORDERS)} orders were confirmed (stock and card were there for each)`,
      confirmed === ORDERS,
      `${String(confirmed)} confirmed`,
    );
    await waitForLastEffects(context, load.orderIds);
  },
};
