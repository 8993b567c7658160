// The ports and databases of the services added with `pnpm new service`
// (added-services.ts), chosen and created at each start like the stack's own.
import { createDatabase, findFreePort } from '@effectively-once/postgres';
import { ADDED_SERVICES, type AddedService, type PreparedService } from './added-services.js';

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
      do port = await findFreePort(input.host);
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
