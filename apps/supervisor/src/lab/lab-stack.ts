// What lab mode and the console add to the template's stack (stack.ts): the
// saga services get fault injection and lab consumer settings and reach what
// they talk to through the fault proxy's links, inventory runs twice, and the
// flow console runs behind the gateway. Pure, like stack.ts; lab-mode.ts
// applies it through the supervisor's extension point (stack-extension.ts).
import type { StackPorts } from '@effectively-once/lab-stack';
import { stackTarget } from '../stack-target.js';
import type { ProcessSpec, StackInput } from '../stack.js';
import type { LabSettings } from './config.js';
import { exportToConsole } from './console-traces.js';
import { labState } from './lab-state.js';
import {
  linkAt,
  PAYMENT_PROVIDER_LINK,
  postgresLink,
  SMTP_LINK,
  throughLink,
  type LinkedService,
  type StackLinks,
} from './links.js';

/** The console's composition root: what `tsx` runs, or what is bundled (with the stack's). */
export const CONSOLE_ENTRY = 'apps/lab/console/src/server.ts';

/**
 * What lab mode changes in each saga service. One message at a time per
 * process with a 3 s lease: a process stuck on a message takes no other, and
 * when its lease runs out the store hands the message to the other inventory
 * process, so two consumers race for one message. Five retries: a message that
 * fails every time is parked within seconds, not after thirty attempts.
 */
export const LAB_CONSUMER_ENV = Object.freeze({
  CONSUMER_CONCURRENCY: '1',
  CONSUMER_MESSAGE_TIMEOUT_MS: '3000',
  CONSUMER_MAX_RETRY_COUNT: '5',
});

const SAGA_SERVICES: ReadonlySet<string> = new Set<LinkedService>([
  'order',
  'inventory',
  'payment',
  'notification',
]);

/** What the lab's functions below are given: the stack, the lab's settings and its links. */
export interface LabStackInput extends LabSettings {
  readonly stack: StackInput;
  /** The stack's ports with the lab's own (inventory2, labControl, console). */
  readonly ports: StackPorts;
  /**
   * The fault proxy's links (links.ts). Given, each saga service reaches
   * PostgreSQL, payment the card processor and notification the SMTP sink
   * through its link; absent, everything connects directly.
   */
  readonly links?: StackLinks | undefined;
}

function labEnv(lab: LabStackInput): Readonly<Record<string, string>> {
  const { faults } = lab;
  const { inheritedEnv } = lab.stack;
  if (!faults.enabled) return {};
  return {
    FAULTS_ENABLED: 'true',
    FAULTS_TOKEN: faults.token,
    // The lab's scenarios replay parked messages: without an ADMIN_TOKEN of
    // its own, a lab stack uses the lab token for the /admin routes too.
    ADMIN_TOKEN: inheritedEnv['ADMIN_TOKEN'] ?? faults.token,
    ...LAB_CONSUMER_ENV,
  };
}

/** A saga-service process in lab mode: its connections through its links, and the lab settings. */
function labService(spec: ProcessSpec, name: LinkedService, input: LabStackInput): ProcessSpec {
  const { links } = input;
  /** `target`, or the same URL through the process's PostgreSQL link when the links are open. */
  const throughPostgresLink = (target: string): string =>
    links === undefined ? target : throughLink(target, linkAt(links, postgresLink(name)));
  const rewritten: Record<string, string> = {};
  for (const key of ['DATABASE_URL', 'EVENT_STORE_DATABASE_URL']) {
    const value = spec.env[key];
    if (value !== undefined) rewritten[key] = throughPostgresLink(value);
  }
  if (links !== undefined && spec.env['PAYMENT_PROVIDER_URL'] !== undefined) {
    const provider = linkAt(links, PAYMENT_PROVIDER_LINK);
    rewritten['PAYMENT_PROVIDER_URL'] = `http://${provider.host}:${String(provider.port)}`;
  }
  if (links !== undefined && spec.env['SMTP_HOST'] !== undefined) {
    const smtp = linkAt(links, SMTP_LINK);
    rewritten['SMTP_HOST'] = smtp.host;
    rewritten['SMTP_PORT'] = String(smtp.port);
  }
  return { ...spec, name, env: { ...spec.env, ...rewritten, ...labEnv(input) } };
}

/**
 * A replica of a saga service (STACK_REPLICAS) in lab mode: the lab's
 * settings, under its own name, through its service's links; `inventory-2`
 * through its own, since it is the lab's second inventory process then. An
 * inventory replica runs no relay in lab mode, so a crash armed in the relay
 * stays on `inventory`, which always holds the relay lock.
 */
function labReplica(spec: ProcessSpec, service: LinkedService, input: LabStackInput): ProcessSpec {
  const relay =
    service === 'inventory' && input.faults.enabled ? { OUTBOX_RELAY: 'false' } : undefined;
  const link: LinkedService = spec.name === 'inventory-2' ? 'inventory-2' : service;
  const lab = labService({ ...spec, env: { ...spec.env, ...relay } }, link, input);
  return { ...lab, name: spec.name };
}

/**
 * The flow console: it opens the event store like a service (same variables),
 * and gets the whole stack description (URLs, databases, tokens) as JSON so it
 * can run scenarios against the stack it belongs to.
 */
function consoleProcess(input: LabStackInput): ProcessSpec[] {
  if (!input.console) return [];
  const { stack, ports } = input;
  const { host } = stack;
  if (ports.console === undefined) {
    throw new Error('The console needs a port (ports.console): choose it first.');
  }
  return [
    {
      name: 'console',
      group: 'edge',
      entry: CONSOLE_ENTRY,
      env: {
        ...stack.inheritedEnv,
        HOST: host,
        LOG_LEVEL: stack.logLevel,
        PORT: String(ports.console),
        EVENT_STORE_DATABASE_URL: stack.databases.eventStore,
        CONSOLE_STACK: JSON.stringify({ ...stackTarget({ ...stack, ports }), ...labState(input) }),
      },
      readyUrl: `http://${host}:${String(ports.console)}/ready`,
    },
  ];
}

/**
 * The template's processes with lab mode and the console added, in start order.
 *
 * @example
 * const specs = withLab(templateSpecs, { stack, ports, faults: { enabled: true, token }, console: true });
 */
export function withLab(specs: readonly ProcessSpec[], input: LabStackInput): ProcessSpec[] {
  const { ports } = input;
  const { host } = input.stack;
  if (input.faults.enabled && ports.inventory2 === undefined) {
    throw new Error('Lab mode runs inventory-2: choose its port (ports.inventory2) first.');
  }
  const url = (port: number): string => `http://${host}:${String(port)}`;
  return specs.flatMap((spec): ProcessSpec[] => {
    if (spec.name === 'gateway') {
      const consoleUrl =
        input.console && ports.console !== undefined ? { CONSOLE_URL: url(ports.console) } : {};
      // Before the gateway, in the same group: the gateway forwards `/` to it.
      return [...consoleProcess(input), { ...spec, env: { ...spec.env, ...consoleUrl } }];
    }
    if (spec.replicaOf !== undefined) return [labReplica(spec, spec.replicaOf, input)];
    if (!SAGA_SERVICES.has(spec.name)) return [spec];
    const service = labService(spec, spec.name as LinkedService, input);
    const replicated = specs.some((other) => other.name === 'inventory-2');
    if (
      spec.name !== 'inventory' ||
      !input.faults.enabled ||
      ports.inventory2 === undefined ||
      replicated
    ) {
      return [service];
    }
    // Same code, database and consumer groups as `inventory`: a competing consumer.
    // One relay process per database keeps a crash armed in the relay on `inventory`.
    const second: ProcessSpec = {
      ...spec,
      env: { ...spec.env, PORT: String(ports.inventory2), OUTBOX_RELAY: 'false' },
      readyUrl: `${url(ports.inventory2)}/ready`,
    };
    return [service, labService(second, 'inventory-2', input)];
  });
}

/**
 * The stack's processes as the lab runs them: lab mode and the console when
 * either is on, and every process exporting its spans to the console.
 *
 * @example
 * const specs = labProcesses(templateSpecs, { stack, ports, faults: { enabled: false }, console: true });
 */
export function labProcesses(specs: readonly ProcessSpec[], input: LabStackInput): ProcessSpec[] {
  const withLabMode = input.faults.enabled || input.console ? withLab(specs, input) : [...specs];
  // The console collects the stack's spans unless the user chose an exporter.
  return exportToConsole(withLabMode, input);
}
