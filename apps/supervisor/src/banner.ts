// What the terminal shows once the stack is ready: every URL. Pure text, so
// the wording is tested without a stack.
import type { StackPorts } from '@effectively-once/stack-protocol';
import type { PreparedService } from './added-services.js';

export interface BannerInput {
  host: string;
  ports: StackPorts;
  startedInMs: number;
  eventStore: 'embedded (PostgreSQL)' | 'EventStoreDB';
  postgres: string;
  stateFile: string;
  /** Services added with `pnpm new service`, listed after the saga's. */
  added?: readonly Pick<PreparedService, 'name' | 'port'>[] | undefined;
  /** Lines of the stack's extensions (stack-extension.ts), after the stack's own. */
  extensionLines?: readonly string[] | undefined;
}

/**
 * `  name:` padded to the column where the banner's URLs start.
 *
 * @example
 * `${bannerLabel('tracing')}http://127.0.0.1:16686`; // '  tracing:             http://127.0.0.1:16686'
 */
export function bannerLabel(name: string): string {
  return `  ${`${name}:`.padEnd(20)} `;
}

/**
 * @example
 * readyBanner({ host: '127.0.0.1', ports, startedInMs: 9_800, eventStore: 'EventStoreDB', postgres: 'embedded', stateFile });
 */
export function readyBanner(input: BannerInput): string {
  const { ports } = input;
  const url = (port: number): string => `http://${input.host}:${String(port)}`;
  return [
    '',
    `effectively-once is ready in ${(input.startedInMs / 1000).toFixed(1)} s`,
    `  entry point (API):   ${url(ports.gateway)}  (try ${url(ports.gateway)}/api/health)`,
    `  order:               ${url(ports.order)}`,
    `  inventory:           ${url(ports.inventory)}`,
    `  payment:             ${url(ports.payment)}`,
    `  notification:        ${url(ports.notification)}`,
    ...(input.added ?? []).map(
      (service) =>
        `${bannerLabel(service.name)}${url(service.port)}  (added with pnpm new service)`,
    ),
    `  payment provider:    ${url(ports.paymentProvider)}  (ledger: /ledger)`,
    `  mail sink:           ${url(ports.mailSink)}  (mail: /emails; SMTP on ${String(ports.smtp)})`,
    `  event store:         ${input.eventStore}`,
    `  PostgreSQL:          ${input.postgres}`,
    ...(input.extensionLines ?? []),
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
