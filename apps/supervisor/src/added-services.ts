// Services added with `pnpm new service`, which appends one line to
// ADDED_SERVICES: each runs under `pnpm start` like the saga services, with a
// database of its own and the shared event store, on its fixed port (or a
// free one with STACK_PORTS=auto; prepare-added-services.ts). Pure, like stack.ts.
// docs/scaffolder.md.

export interface AddedService {
  /** The app's folder under apps/, its process name and its database's suffix. */
  readonly name: string;
  /** Its port when the stack runs on the documented ports. */
  readonly fixedPort: number;
}

export const ADDED_SERVICES: readonly AddedService[] = [];

/** An added service's process: a ProcessSpec of the `service` group (stack.ts). */
export interface AddedServiceProcess {
  readonly name: string;
  readonly group: 'service';
  readonly entry: string;
  readonly env: Readonly<Record<string, string>>;
  readonly readyUrl: string;
}

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
}): AddedServiceProcess[] {
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
