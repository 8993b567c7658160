// The database server goes away under load: stopped in immediate mode (every
// session cut, no checkpoint), down for a while, back through crash
// recovery. Every pool, subscription session, relay and timer loop must
// notice, wait and reconnect; a client retries its POSTs under the same key;
// no acknowledged order and no acknowledged message may be lost.
import { setTimeout as sleep } from 'node:timers/promises';
import { outagesClient } from '../../clients/outages-client.js';
import type { Scenario } from '../../scenario.js';
import {
  placeSteadyOrders,
  waitForLastEffects,
  readyStatuses,
  waitForServicesReady,
  waitForTerminal,
} from './order-load.js';
import { expectNoRestart, processStarts } from './process-starts.js';

export interface PostgresRestartOptions {
  /** How long the server stays down; 10 s for the named scenario. */
  readonly downMs?: number;
}

const ORDERS = 12;
const ORDER_INTERVAL_MS = 300;
/** Orders are already flowing when the server goes. */
const RESTART_AFTER_MS = 1_000;

/**
 * @example
 * const short = postgresRestart({ downMs: 3_000 }); // what the e2e run uses
 */
export function postgresRestart(options: PostgresRestartOptions = {}): Scenario {
  const downMs = options.downMs ?? 10_000;
  return {
    name: 'postgres-restart',
    title: 'PostgreSQL stops in immediate mode under load and comes back',
    summary: `While orders are placed at a steady rate, the supervisor stops the embedded PostgreSQL server in immediate mode (as pg_ctl stop -m immediate), keeps it down ${String(downMs / 1000)} s and starts it again through crash recovery. POSTs fail meanwhile and the client retries them under the same key; the services keep running, their pools, subscriptions and relays reconnect, and every order ends confirmed with each effect once. Refused on a stack that runs on DATABASE_URL.`,
    infrastructure: true,
    async run(context) {
      const outages = outagesClient(context.stack);
      const server = await outages.postgres();
      context.expect(
        'the stack runs the embedded server, which the lab may stop',
        server.kind === 'embedded',
      );
      const sku = await context.freshSku(ORDERS);
      const starts = await processStarts(context);
      const loading = placeSteadyOrders(context, {
        sku,
        count: ORDERS,
        intervalMs: ORDER_INTERVAL_MS,
      });
      // Reported by the await below; meanwhile it must not count as unhandled.
      loading.catch(() => undefined);
      await sleep(RESTART_AFTER_MS);
      context.step(`stopping PostgreSQL in immediate mode for ${String(downMs)} ms`);
      const restarting = outages.restartPostgres({ downMs });
      restarting.catch(() => undefined);
      // Halfway through the outage: readiness must not lie about it.
      await sleep(downMs / 2);
      const whileDown = await readyStatuses(context);
      context.expect(
        'while the server is down no saga service answers /ready with 200',
        [...whileDown.values()].every((status) => status !== 200),
        [...whileDown].map(([service, status]) => `${service} ${String(status)}`).join(', '),
      );
      const restart = await restarting;
      const outageMs = Date.parse(restart.startedAt) - Date.parse(restart.stoppedAt);
      context.step(`PostgreSQL accepts connections again after ${String(outageMs)} ms down`);
      context.expect(
        `the server was down at least ${String(downMs)} ms`,
        outageMs >= downMs,
        `${String(outageMs)} ms`,
      );
      const load = await loading;
      context.step(
        `all ${String(ORDERS)} orders acknowledged; the client retried ${String(load.retried)} POSTs`,
      );
      await waitForServicesReady(context, 60_000);
      context.step('every saga service answers /ready again');
      await expectNoRestart(context, starts);
      const confirmed = await waitForTerminal(context, load.orderIds, 90_000);
      context.expect(
        `all ${String(ORDERS)} orders were confirmed`,
        confirmed === ORDERS,
        `${String(confirmed)} confirmed`,
      );
      await waitForLastEffects(context, load.orderIds);
    },
  };
}
