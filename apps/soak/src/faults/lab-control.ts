// Faults the supervisor's lab-control server does (lab mode only): network
// faults on the fault proxy's links, PostgreSQL stopped in immediate mode and
// restarted, the card processor or the SMTP sink really down for a while.
// Called over HTTP like any tool would (docs/fault-proxy.md, docs/fault-injection.md).
import { z } from 'zod';
import { pick, seededRandom } from '../plan/seeded-random.js';
import type { SoakStack } from '../stack/soak-stack.js';
import type { FaultInjector } from './fault.js';

/** Every link `pnpm start` opens in lab mode (apps/supervisor/src/lab-links.ts). */
export const LINKS = [
  'order-postgres',
  'inventory-postgres',
  'inventory-2-postgres',
  'payment-postgres',
  'notification-postgres',
  'payment-provider',
  'smtp',
] as const;

const PostgresStatus = z.object({ kind: z.enum(['embedded', 'external']) }).loose();

function controlUrl(stack: SoakStack): string | undefined {
  const port = stack.target.ports.labControl;
  if (port === undefined) return undefined;
  return `${new URL(stack.target.gatewayUrl).protocol}//${new URL(stack.target.gatewayUrl).hostname}:${String(port)}`;
}

export async function call(
  stack: SoakStack,
  path: string,
  init: { method: string; json?: unknown },
): Promise<unknown> {
  const url = controlUrl(stack);
  if (url === undefined) throw new Error('The stack has no lab-control server.');
  if (!stack.target.faults.enabled) throw new Error('The stack runs without lab mode.');
  const response = await fetch(`${url}${path}`, {
    method: init.method,
    headers: {
      authorization: `Bearer ${stack.target.faults.token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await response.text();
  if (!response.ok) throw new LabControlError(init.method, path, response.status, text);
  return text.length === 0 ? undefined : JSON.parse(text);
}

/** An answer other than 2xx, with its parsed problem document when it has one. */
export class LabControlError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(method: string, path: string, status: number, text: string) {
    super(`${method} ${path} answered ${String(status)}: ${text.slice(0, 300)}`);
    this.name = 'LabControlError';
    this.status = status;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    this.body = body;
  }
}

const noLabControl = (stack: SoakStack) =>
  controlUrl(stack) === undefined ? 'the stack has no lab-control server' : undefined;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type LinkFaultBody =
  | { kind: 'latency'; delayMs: number }
  | { kind: 'reset' | 'blackhole' | 'refuse' }
  | { kind: 'trickle'; bytesPerSecond: number };

/** A network fault on one link the seed picks; it clears by itself after its duration. */
function linkFault(
  body: LinkFaultBody,
  durationMs: { long: number; short: number },
): FaultInjector {
  return {
    kind: `network:${body.kind}`,
    durationMs,
    unavailableBecause: noLabControl,
    inject: async ({ stack, seed }, fault) => {
      const link = pick(seededRandom(seed ^ fault.index), LINKS);
      await call(stack, `/lab/links/${link}/faults`, {
        method: 'POST',
        json: { ...body, durationMs: fault.durationMs },
      });
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
    const status = PostgresStatus.parse(await call(stack, '/lab/postgres', { method: 'GET' }));
    return status.kind === 'embedded'
      ? undefined
      : "PostgreSQL is not the stack's own (DATABASE_URL): it cannot be restarted";
  },
  inject: async ({ stack }, fault) => {
    await call(stack, '/lab/postgres/restart', {
      method: 'POST',
      json: { downMs: fault.durationMs },
    });
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
      await call(stack, `/lab/processes/${name}/stop`, {
        method: 'POST',
        json: { durationMs: fault.durationMs },
      });
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
