// statement_timeout and idle_in_transaction_session_timeout set low on every
// database of the stack for a while, as the `low-db-timeouts` scenario sets
// them (docs/scenarios/low-db-timeouts.md), with the scenario runner's own
// helpers: a DBA's ALTER DATABASE, then the services' sessions ended so their
// pools reconnect under the new defaults; the same again to put them back.
import {
  LOW_DB_TIMEOUTS,
  openAdmin,
  reconnectServices,
  resetDatabaseDefaults,
  setDatabaseDefaults,
} from '@effectively-once/scenario-runner';
import type { FaultInjector } from './fault.js';

/**
 * How long a step is tried again: other faults overlap this one, and the
 * server may be down (postgres-restart) or the admin session cut
 * (pg-terminate-backends) when it runs. A reset that never happened would
 * leave the rest of the soak under the low timeouts, so it is tried as long.
 */
const RETRY_FOR_MS = 60_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function retried<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await pause(500);
    }
  }
}

const SETTINGS = Object.entries(LOW_DB_TIMEOUTS)
  .map(([name, value]) => `${name}=${value}`)
  .join(', ');

export const lowDbTimeouts: FaultInjector = {
  kind: 'db-timeouts-low',
  durationMs: { long: 20_000, short: 3_000 },
  unavailableBecause: () => undefined,
  inject: async ({ stack }, fault) => {
    const admin = openAdmin(stack.target);
    try {
      let endedAfterSet = 0;
      try {
        endedAfterSet = await retried(async () => {
          await setDatabaseDefaults(admin, stack.target, LOW_DB_TIMEOUTS);
          return reconnectServices(admin, stack.target);
        });
        await pause(fault.durationMs);
      } finally {
        await retried(() =>
          resetDatabaseDefaults(admin, stack.target, Object.keys(LOW_DB_TIMEOUTS)),
        );
      }
      const endedAfterReset = await retried(() => reconnectServices(admin, stack.target));
      return `${SETTINGS} on every database for ${String(fault.durationMs)} ms; ended ${String(endedAfterSet)} sessions to apply them and ${String(endedAfterReset)} after the reset`;
    } finally {
      await admin.destroy();
    }
  },
};
