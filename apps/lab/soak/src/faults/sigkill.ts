// SIGKILL, the crash a process cannot clean up after: every kind of process
// of the stack, the one holding an outbox relay's lock, and one the
// supervisor is in the middle of restarting.
import { connectClient } from '../with-client.js';
import { RELAY_APPLICATION_NAME, RELAY_LOCK_KEY } from '@effectively-once/outbox';
import { outagesClient } from '@effectively-once/scenario-runner';
import { seededRandom, pick } from '../plan/seeded-random.js';
import { isNotRunning } from './lab-control.js';
import type { FaultInjector } from './fault.js';
import type { SoakStack } from '../stack/soak-stack.js';

/** How long the soak waits for the supervisor to start a killed process again. */
const RESTART_WAIT_MS = 60_000;
const SERVICES = ['order', 'inventory', 'inventory-2', 'payment', 'notification'] as const;

/**
 * SIGKILLs the named process's current run, through the supervisor's lab
 * API: it knows its live child, where a pid remembered here could by now
 * name another process. One that is down (another fault stopped it, or it is
 * between a crash and its restart) answers 409 and is waited for: the
 * schedule's faults overlap, and killing nothing would prove nothing.
 */
async function kill(stack: SoakStack, name: string): Promise<number> {
  const deadline = Date.now() + RESTART_WAIT_MS + 60_000;
  for (;;) {
    try {
      return (await outagesClient(stack.target).killProcess(name)).killedPid;
    } catch (error) {
      if (!isNotRunning(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** One kind per process: each is killed at least once in every soak. */
export function sigkillOf(name: string): FaultInjector {
  return {
    kind: `sigkill:${name}`,
    durationMs: { long: 0, short: 0 },
    unavailableBecause: (stack) =>
      stack.processNames.includes(name) ? undefined : `the stack runs no ${name}`,
    inject: async ({ stack }) => {
      const pid = await kill(stack, name);
      const next = await stack.waitForStart(name, pid, RESTART_WAIT_MS);
      return `killed ${name} (pid ${String(pid)}); restarted as pid ${String(next)}`;
    },
  };
}

/**
 * Each database has one relay process in lab mode (inventory-2 runs none), so
 * the holder of a database's relay lock is the service owning it: found in
 * pg_locks, then killed while it holds the lock.
 */
const RELAY_OWNER_BY_DATABASE = {
  inventory: 'inventory',
  payment: 'payment',
  notification: 'notification',
  order: 'order',
} as const;

async function databasesWithHeldRelayLock(stack: SoakStack): Promise<string[]> {
  const client = await connectClient(stack.target.databases.adminUrl);
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT d.datname FROM pg_locks l
         JOIN pg_stat_activity a ON a.pid = l.pid
         JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
          AND a.application_name = $1
          AND l.classid::bigint = $2 AND l.objid::bigint = $3`,
      [RELAY_APPLICATION_NAME, Math.floor(RELAY_LOCK_KEY / 2 ** 32), RELAY_LOCK_KEY % 2 ** 32],
    );
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

function ownersOf(stack: SoakStack, held: readonly string[]) {
  return Object.entries(stack.target.databases).flatMap(([name, url]) => {
    // Only the saga's databases have a relay owner (`added` holds the added services' URLs).
    if (!(name in RELAY_OWNER_BY_DATABASE) || typeof url !== 'string') return [];
    const database = new URL(url).pathname.slice(1);
    if (!held.includes(database)) return [];
    return [
      { owner: RELAY_OWNER_BY_DATABASE[name as keyof typeof RELAY_OWNER_BY_DATABASE], database },
    ];
  });
}

/**
 * The services holding a relay lock now, waited for while none does: an
 * overlapping fault (PostgreSQL restarting, its connections ended, the owner
 * killed and starting again) leaves every lock free for a while, and the
 * relays take them back once they reconnect. Only a lock that stays free past
 * the restart wait is a failure.
 */
async function relayLockOwners(stack: SoakStack) {
  const deadline = Date.now() + RESTART_WAIT_MS;
  let lastError: unknown;
  for (;;) {
    try {
      const owners = ownersOf(stack, await databasesWithHeldRelayLock(stack));
      if (owners.length > 0) return owners;
      lastError = undefined;
    } catch (error) {
      // PostgreSQL itself may be the fault in progress: asked again until the deadline.
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `No relay held its lock within the restart wait (${String(RESTART_WAIT_MS / 1000)} s of asking): nothing to kill.`,
        { cause: lastError },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const sigkillRelayHolder: FaultInjector = {
  kind: 'sigkill:relay-lock-holder',
  durationMs: { long: 0, short: 0 },
  unavailableBecause: () => undefined,
  inject: async ({ stack, seed }, fault) => {
    const owners = await relayLockOwners(stack);
    const { owner, database } = pick(seededRandom(seed ^ fault.index), owners);
    const pid = await kill(stack, owner);
    const next = await stack.waitForStart(owner, pid, RESTART_WAIT_MS);
    return `killed ${owner} (pid ${String(pid)}) holding the relay lock of ${database}; restarted as pid ${String(next)}`;
  },
};

/** Killed, then killed again the moment the supervisor starts it, before it is ready. */
export const sigkillDuringRestart: FaultInjector = {
  kind: 'sigkill:during-restart',
  durationMs: { long: 0, short: 0 },
  unavailableBecause: () => undefined,
  inject: async ({ stack, seed }, fault) => {
    const name = pick(seededRandom(seed ^ fault.index), SERVICES);
    const first = await kill(stack, name);
    const second = await stack.waitForStart(name, first, RESTART_WAIT_MS);
    await kill(stack, name);
    const third = await stack.waitForStart(name, second, RESTART_WAIT_MS);
    return `killed ${name} (pid ${String(first)}), then its restart (pid ${String(second)}) while starting; up again as pid ${String(third)}`;
  },
};
