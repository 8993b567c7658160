// What a running stack tells the tools that drive it: the state file and the
// ready message are built from this one value, so they never disagree about
// URLs, ports, databases or tokens.
import type { StackPorts, StackTarget } from '@effectively-once/stack-protocol';
import type { PreparedService } from './added-services.js';
import type { DatabaseUrls } from './stack.js';

export interface StackTargetInput {
  readonly host: string;
  readonly ports: StackPorts;
  /** The database server's own URL (the superuser's connection). */
  readonly adminUrl: string;
  readonly databases: DatabaseUrls;
  readonly inheritedEnv: Readonly<Record<string, string>>;
  /** Services added with `pnpm new service`: their databases are listed beside the saga's. */
  readonly added?: readonly PreparedService[] | undefined;
}

/**
 * The added services' databases by name, or nothing when there are none, so a
 * stack without any writes the same state file as before.
 *
 * @example
 * addedDatabases([{ name: 'shipping', port: 3008, databaseUrl: 'postgres://.../eo_shipping' }]); // { added: { shipping: 'postgres://.../eo_shipping' } }
 */
export function addedDatabases(
  added: readonly PreparedService[] = [],
): { added: Record<string, string> } | Record<string, never> {
  if (added.length === 0) return {};
  return { added: Object.fromEntries(added.map((service) => [service.name, service.databaseUrl])) };
}

/**
 * @example
 * const target = stackTarget({ host: '127.0.0.1', ports, adminUrl, databases, inheritedEnv: {} });
 * target.gatewayUrl; // 'http://127.0.0.1:3000'
 */
export function stackTarget(input: StackTargetInput): StackTarget {
  // The services' ADMIN_TOKEN (parked messages, replay); undefined: the /admin routes do not exist.
  const adminToken = input.inheritedEnv['ADMIN_TOKEN'];
  return {
    gatewayUrl: `http://${input.host}:${String(input.ports.gateway)}`,
    ports: input.ports,
    databases: { adminUrl: input.adminUrl, ...input.databases, ...addedDatabases(input.added) },
    ...(adminToken === undefined ? {} : { adminToken }),
  };
}
