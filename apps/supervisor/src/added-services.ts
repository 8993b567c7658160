// Services added with `pnpm new service`, which appends one line to
// ADDED_SERVICES: each runs under `pnpm start` like the saga services, with a
// database of its own and the shared event store, on its fixed port (or a
// free one with PORT_MODE=auto). docs/scaffolder.md.
import { createServer } from 'node:net';
import { createDatabase } from '@effectively-once/postgres';
import type { ProcessSpec } from './stack.js';

export interface AddedService {
  /** The app's folder under apps/, its process name and its database's suffix. */
  readonly name: string;
  /** Its port when the stack runs on the documented ports. */
  readonly fixedPort: number;
}

export const ADDED_SERVICES: readonly AddedService[] = [];

/** An added service as this run starts it. */
export interface PreparedService {
  readonly name: string;
  readonly port: number;
  readonly databaseUrl: string;
}

/** The composition root of each, for the bundles `pnpm start` builds. */
export function addedServiceEntries(services: readonly AddedService[] = ADDED_SERVICES): string[] {
  return services.map((service) => `apps/${service.name}/src/server.ts`);
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Each added service's port and database, created where missing.
 *
 * @example
 * const added = await prepareAddedServices({ mode: 'auto', host, adminUrl, prefix, taken: Object.values(ports) });
 */
export async function prepareAddedServices(input: {
  mode: 'fixed' | 'auto';
  host: string;
  adminUrl: string;
  prefix: string;
  /** Ports the stack already uses: a free port is never one of them. */
  taken: readonly number[];
  services?: readonly AddedService[];
}): Promise<PreparedService[]> {
  const taken = new Set(input.taken);
  const prepared: PreparedService[] = [];
  for (const service of input.services ?? ADDED_SERVICES) {
    let port = service.fixedPort;
    if (input.mode === 'auto') {
      do port = await freePort(input.host);
      while (taken.has(port));
    }
    taken.add(port);
    const database = `${input.prefix}${service.name.replaceAll('-', '_')}`;
    prepared.push({
      name: service.name,
      port,
      databaseUrl: await createDatabase(input.adminUrl, database),
    });
  }
  return prepared;
}

/**
 * Their processes, with the environment every saga service gets.
 *
 * @example
 * const specs = addedServiceProcesses({ host, base, eventStoreUrl: databases.eventStore, services: added });
 */
export function addedServiceProcesses(input: {
  host: string;
  /** HOST, LOG_LEVEL and what every child inherits. */
  base: Readonly<Record<string, string>>;
  eventStoreUrl: string;
  services: readonly PreparedService[];
}): ProcessSpec[] {
  return input.services.map((service) => ({
    name: service.name,
    group: 'service',
    entry: `apps/${service.name}/src/server.ts`,
    env: {
      ...input.base,
      PORT: String(service.port),
      DATABASE_URL: service.databaseUrl,
      EVENT_STORE_DATABASE_URL: input.eventStoreUrl,
    },
    readyUrl: `http://${input.host}:${String(service.port)}/ready`,
  }));
}
