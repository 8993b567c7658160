// Lab mode's servers beside the stack: the fault proxy, whose links the saga
// services connect through, and lab-control, the supervisor's own lab API
// (links, PostgreSQL restarts, process outages). lab-mode.ts opens them once
// the ports are chosen and closes them as the stack stops.
import { openFaultProxy } from '@effectively-once/fault-proxy';
import type { PostgresServer } from '@effectively-once/postgres';
import type { StackPorts } from '@effectively-once/lab-stack';
import type { FaultsSetting } from './config.js';
import type { DatabaseUrls } from '../stack.js';
import type { SupervisedPostgres } from '../supervised-postgres.js';
import type { SupervisedProcess } from '../supervised-process.js';
import { linkRoutes } from './control/links.routes.js';
import { postgresRoutes } from './control/postgres.routes.js';
import { processRoutes } from './control/processes.routes.js';
import { openLabControl } from './control/server.js';
import { labLinkPlan, stackLinks, type StackLinks } from './links.js';

export interface OpenedLab {
  /** The links' addresses, for defineStack. */
  readonly links: StackLinks;
  /** Closes lab-control: started before the processes stop, awaited last (a PostgreSQL restart in flight ends only when PostgreSQL stops). */
  closeControl(): Promise<void>;
  /** Closes the links: after the processes, or a link closed under a stopping service would look like a fault. */
  closeProxy(): Promise<void>;
}

/**
 * Opens the fault proxy's links and the lab-control server; undefined unless
 * lab mode is on and a lab-control port was chosen.
 *
 * @example
 * const lab = await openLab({ host, faults, ports, databases, postgres, processes: running, say });
 */
export async function openLab(input: {
  host: string;
  faults: FaultsSetting;
  ports: StackPorts;
  databases: DatabaseUrls;
  postgres: PostgresServer;
  /** The embedded server's crash restarts (supervised-postgres.ts); none for DATABASE_URL. */
  supervisedPostgres: SupervisedPostgres | undefined;
  /** The supervisor's live list: lab-control stops, starts and kills what is in it. */
  processes: readonly SupervisedProcess[];
  say: (message: string) => void;
}): Promise<OpenedLab | undefined> {
  const { host, faults, ports, say } = input;
  if (!faults.enabled || ports.labControl === undefined) return undefined;
  const proxy = await openFaultProxy({
    listenHost: host,
    links: labLinkPlan({ host, ports, databases: input.databases }),
  });
  const labControl = await openLabControl({
    host,
    port: ports.labControl,
    token: faults.token,
    // Each topic of the lab API is one module in ./control (see server.ts).
    routes: [
      linkRoutes(proxy),
      postgresRoutes({
        postgres: input.postgres,
        say,
        ...(input.supervisedPostgres === undefined ? {} : { supervised: input.supervisedPostgres }),
      }),
      processRoutes({ processes: input.processes, say }),
    ],
    onServerError: say,
  });
  return {
    links: stackLinks(proxy.links()),
    closeControl: () => labControl.close(),
    closeProxy: () => proxy.close(),
  };
}
