// What the terminal shows: the lab-mode warning at start, and every URL once
// the stack is ready. Pure text, so the wording is tested without a stack.
import type { StackFaults, StackPorts } from '@effectively-once/stack-protocol';
import type { PreparedService } from './added-services.js';

/**
 * The lines printed before anything starts when lab mode is on: the token is
 * shown because the user needs it for /admin/lab, and this is a local lab.
 *
 * @example
 * labModeNotice({ enabled: true, token: 'abc...' }); // ['FAULT INJECTION IS ON (lab mode) ...', ...]
 */
export function labModeNotice(faults: StackFaults): string[] {
  if (!faults.enabled) return [];
  return [
    'FAULT INJECTION IS ON (lab mode, STACK_FAULTS=true): never run this against data you care about.',
    `  FAULTS_TOKEN=${faults.token}  (send it as "Authorization: Bearer <token>" to /admin/lab)`,
    '  consumers take one message at a time with a 3 s lease and park after 5 retries; inventory runs twice.',
  ];
}

export interface BannerInput {
  host: string;
  ports: StackPorts;
  startedInMs: number;
  eventStore: 'embedded (PostgreSQL)' | 'EventStoreDB';
  postgres: string;
  faults: StackFaults;
  stateFile: string;
  /** Services added with `pnpm new service`, listed after the saga's. */
  added?: readonly Pick<PreparedService, 'name' | 'port'>[] | undefined;
}

/** `  name:` padded to the column where the banner's URLs start. */
function label(name: string): string {
  return `  ${`${name}:`.padEnd(20)} `;
}

/**
 * @example
 * readyBanner({ host: '127.0.0.1', ports, startedInMs: 9_800, eventStore: 'EventStoreDB', postgres: 'embedded', faults, stateFile });
 */
export function readyBanner(input: BannerInput): string {
  const { ports } = input;
  const url = (port: number): string => `http://${input.host}:${String(port)}`;
  const lab = input.faults.enabled;
  return [
    '',
    `effectively-once is ready in ${(input.startedInMs / 1000).toFixed(1)} s`,
    `  entry point (API):   ${url(ports.gateway)}  (try ${url(ports.gateway)}/api/health)`,
    // Through the gateway: the console's own port is not meant for people.
    ...(ports.console === undefined ? [] : [`  console:             ${url(ports.gateway)}/`]),
    `  order:               ${url(ports.order)}`,
    `  inventory:           ${url(ports.inventory)}`,
    ...(lab && ports.inventory2 !== undefined
      ? [`  inventory-2:         ${url(ports.inventory2)}  (same database, competing consumer)`]
      : []),
    `  payment:             ${url(ports.payment)}`,
    `  notification:        ${url(ports.notification)}`,
    ...(input.added ?? []).map(
      (service) => `${label(service.name)}${url(service.port)}  (added with pnpm new service)`,
    ),
    `  payment provider:    ${url(ports.paymentProvider)}  (ledger: /ledger)`,
    `  mail sink:           ${url(ports.mailSink)}  (mail: /emails; SMTP on ${String(ports.smtp)})`,
    `  event store:         ${input.eventStore}`,
    `  PostgreSQL:          ${input.postgres}`,
    `  fault injection:     ${input.faults.enabled ? `ON (FAULTS_TOKEN=${input.faults.token})` : 'off'}`,
    ...(lab && ports.labControl !== undefined
      ? [`  lab control:         ${url(ports.labControl)}  (network links: /lab/links, same token)`]
      : []),
    `  state file:          ${input.stateFile}`,
    'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

/**
 * One line with how long each phase of the start took, in the order they
 * ended. Phases can overlap: the bundles are built while PostgreSQL starts.
 *
 * @example
 * phaseSummary({ postgres: 2_140, bundles: 820 }); // 'start phases: postgres 2.14 s, bundles 0.82 s'
 */
export function phaseSummary(phasesMs: Readonly<Record<string, number>>): string {
  const phases = Object.entries(phasesMs).map(
    ([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`,
  );
  return `start phases: ${phases.join(', ')}`;
}
