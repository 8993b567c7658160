// pg_terminate_backend: the database drops some of the services' connections
// in the middle of whatever they were doing, as a failover or an operator
// would. Transactions in flight roll back; pools must notice and reconnect.
import { connectClient } from '../with-client.js';
import { seededRandom } from '../plan/seeded-random.js';
import type { PlannedFault } from '../plan/soak-plan.js';
import type { FaultContext, FaultInjector } from './fault.js';

/** About this share of the stack's client connections is cut each time. */
const SHARE = 0.4;

/** How long a cut is tried again when the server itself goes away under it. */
const RETRY_FOR_MS = 60_000;

export const terminateBackends: FaultInjector = {
  kind: 'pg-terminate-backends',
  durationMs: { long: 0, short: 0 },
  unavailableBecause: () => undefined,
  inject: async (context, fault) => {
    // Faults overlap: a postgres-restart can stop the server while this
    // session lists or ends backends, or leave no service connected yet.
    // That is no failure to inject this one: it is tried again, on a new
    // session, once the server is back and the services have reconnected.
    const deadline = Date.now() + RETRY_FOR_MS;
    for (;;) {
      try {
        return await terminateSome(context, fault);
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  },
};

async function terminateSome({ stack, seed }: FaultContext, fault: PlannedFault): Promise<string> {
  const client = await connectClient(stack.target.databases.adminUrl);
  try {
    // The saga's databases: not the admin one, nor those of services added with `pnpm new service`.
    const databases = Object.entries(stack.target.databases).flatMap(([name, url]) =>
      name === 'adminUrl' || typeof url !== 'string' ? [] : [new URL(url).pathname.slice(1)],
    );
    const { rows } = await client.query<{ pid: number; application_name: string }>(
      `SELECT pid, application_name FROM pg_stat_activity
          WHERE datname = ANY($1) AND backend_type = 'client backend' AND pid <> pg_backend_pid()
          ORDER BY pid`,
      [databases],
    );
    // Just after another fault (a restart, sessions ended) the pools may hold
    // no connection yet: ending none would prove nothing, so it is tried again.
    if (rows.length === 0) throw new Error('No service connection to end yet.');
    const random = seededRandom(seed ^ fault.index);
    const chosen = rows.filter(() => random() < SHARE);
    const victims = chosen.length > 0 ? chosen : rows.slice(0, 1);
    for (const victim of victims) {
      await client.query('SELECT pg_terminate_backend($1)', [victim.pid]);
    }
    const names = [...new Set(victims.map((victim) => victim.application_name || '?'))];
    return `terminated ${String(victims.length)} of ${String(rows.length)} connections (${names.join(', ')})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
