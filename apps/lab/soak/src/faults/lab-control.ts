// Faults the supervisor's lab-control server does (lab mode only): network
// faults on the fault proxy's links, PostgreSQL stopped in immediate mode and
// restarted, the card processor or the SMTP sink really down for a while.
// Through the scenario runner's clients, as any tool calls them
// (docs/fault-proxy.md, docs/fault-injection.md).
import type { LinkFault } from '@effectively-once/fault-proxy/schemas';
import { HttpError, labControlClient, outagesClient } from '@effectively-once/scenario-runner';
import { pick, seededRandom } from '../plan/seeded-random.js';
import type { SoakStack } from '../stack/soak-stack.js';
import type { FaultInjector } from './fault.js';

const noLabControl = (stack: SoakStack) =>
  stack.target.ports.labControl === undefined ? 'the stack has no lab-control server' : undefined;

/** A 409 PROCESS_NOT_RUNNING: the process is down (stopped by another fault, or restarting). */
export function isNotRunning(error: unknown): boolean {
  return (
    error instanceof HttpError &&
    error.status === 409 &&
    error.message.includes('PROCESS_NOT_RUNNING')
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A link fault as the soak plans it: its duration comes from the schedule. */
type WithoutDuration<Fault> = Fault extends unknown ? Omit<Fault, 'durationMs'> : never;
type LinkFaultBody = WithoutDuration<LinkFault>;

/**
 * A network fault on one link the seed picks among those the stack has
 * (GET /lab/links); it clears by itself after its duration.
 */
function linkFault(
  body: LinkFaultBody,
  durationMs: { long: number; short: number },
): FaultInjector {
  return {
    kind: `network:${body.kind}`,
    durationMs,
    unavailableBecause: noLabControl,
    inject: async ({ stack, seed }, fault) => {
      const control = labControlClient(stack.target);
      const links = (await control.links()).map((link) => link.name).sort();
      const link = pick(seededRandom(seed ^ fault.index), links);
      await control.applyFault(link, { ...body, durationMs: fault.durationMs });
      await pause(fault.durationMs);
      return `${body.kind} on ${link} for ${String(fault.durationMs)} ms`;
    },
  };
}

export const networkFaults: readonly FaultInjector[] = [
  linkFault({ kind: 'latency', delayMs: 150 }, { long: 20_000, short: 4_000 }),
  linkFault({ kind: 'reset' }, { long: 5_000, short: 2_000 }),
  linkFault({ kind: 'blackhole' }, { long: 15_000, short: 4_000 }),
  linkFault({ kind: 'trickle', bytesPerSecond: 4_096 }, { long: 20_000, short: 4_000 }),
  linkFault({ kind: 'refuse' }, { long: 10_000, short: 3_000 }),
];

/** PostgreSQL stopped in immediate mode (as after a power cut of its host) and started again. */
export const postgresRestart: FaultInjector = {
  kind: 'postgres-restart',
  durationMs: { long: 5_000, short: 2_000 },
  unavailableBecause: async (stack) => {
    const missing = noLabControl(stack);
    if (missing !== undefined) return missing;
    const status = await outagesClient(stack.target).postgres();
    return status.kind === 'embedded'
      ? undefined
      : "PostgreSQL is not the stack's own (DATABASE_URL): it cannot be restarted";
  },
  inject: async ({ stack }, fault) => {
    await outagesClient(stack.target).restartPostgres({ downMs: fault.durationMs });
    return `stopped in immediate mode, down ${String(fault.durationMs)} ms, started again`;
  },
};

/** A process of the stack stopped (not killed: down), then started again by the supervisor. */
function processDown(
  kind: string,
  name: string,
  durationMs: { long: number; short: number },
): FaultInjector {
  return {
    kind,
    durationMs,
    unavailableBecause: noLabControl,
    inject: async ({ stack }, fault) => {
      const before = stack.pidOf(name);
      await outagesClient(stack.target).stopProcess(name, fault.durationMs);
      const next = await stack.waitForStart(name, before ?? -1, fault.durationMs + 60_000);
      return `${name} down for ${String(fault.durationMs)} ms, then started again as pid ${String(next)}`;
    },
  };
}

export const providerDown = processDown('provider-down', 'payment-provider', {
  long: 60_000,
  short: 5_000,
});
export const smtpDown = processDown('smtp-down', 'mail-sink', { long: 60_000, short: 5_000 });
