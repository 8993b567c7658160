// Lab mode's network: which links the fault proxy opens, and how a process's
// addresses are rewritten to go through them. Pure, like stack.ts: main.ts
// opens the links and hands their addresses to defineStack.
import type { StackPorts } from '@effectively-once/lab-stack';
import type { DatabaseUrls } from '../stack.js';

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/** The processes whose PostgreSQL connections go through a link of their own. */
export const LINKED_SERVICES = [
  'order',
  'inventory',
  'inventory-2',
  'payment',
  'notification',
] as const;
export type LinkedService = (typeof LINKED_SERVICES)[number];

/** `order-postgres`: the link between the order process and PostgreSQL (its database and the event store). */
export function postgresLink(service: LinkedService): string {
  return `${service}-postgres`;
}

/** payment → the card processor. */
export const PAYMENT_PROVIDER_LINK = 'payment-provider';
/** notification → the SMTP sink. */
export const SMTP_LINK = 'smtp';

/** Each link's address, by name, as the proxy opened them. */
export type StackLinks = Readonly<Record<string, Endpoint>>;

const POSTGRES_DEFAULT_PORT = 5432;

/** libpq's query parameters that name the server instead of the URL's host and port. */
const SERVER_PARAMETERS = ['host', 'hostaddr', 'port'] as const;

/**
 * The TCP address of a PostgreSQL URL. The fault proxy is a TCP proxy, so a
 * URL that names its server another way (a Unix socket, a `host` or `port`
 * parameter, which the driver prefers to the URL's own) is refused: proxying
 * the URL's nominal address would test a connection nobody makes.
 */
function postgresEndpointOf(url: string): Endpoint {
  const parsed = new URL(url);
  const named = SERVER_PARAMETERS.filter((name) => parsed.searchParams.has(name));
  const tcp = ['postgres:', 'postgresql:'].includes(parsed.protocol) && parsed.hostname !== '';
  if (!tcp || named.length > 0) {
    parsed.username = '';
    parsed.password = '';
    const how = named.length > 0 ? `its ${named.join(', ')} parameter` : 'no TCP host';
    throw new Error(
      `Lab links proxy PostgreSQL over TCP, and ${parsed.toString()} names its server by ${how}: give DATABASE_URL as postgres://user:password@host:port/database.`,
    );
  }
  const port = parsed.port === '' ? POSTGRES_DEFAULT_PORT : Number(parsed.port);
  return { host: parsed.hostname, port };
}

/**
 * The links lab mode opens: one per saga-service process to PostgreSQL, one
 * from payment to the card processor, one from notification to the SMTP sink.
 *
 * @example
 * labLinkPlan({ host: '127.0.0.1', ports, databases }).map((link) => link.name);
 * // ['order-postgres', 'inventory-postgres', 'inventory-2-postgres', 'payment-postgres', 'notification-postgres', 'payment-provider', 'smtp']
 */
export function labLinkPlan(input: {
  host: string;
  ports: StackPorts;
  databases: DatabaseUrls;
}): { name: string; upstream: Endpoint }[] {
  const postgres = postgresEndpointOf(input.databases.eventStore);
  for (const url of Object.values(input.databases)) {
    const server = postgresEndpointOf(url);
    if (server.host !== postgres.host || server.port !== postgres.port) {
      throw new Error('Lab links expect every database of the stack on one PostgreSQL server.');
    }
  }
  return [
    ...LINKED_SERVICES.map((service) => ({ name: postgresLink(service), upstream: postgres })),
    {
      name: PAYMENT_PROVIDER_LINK,
      upstream: { host: input.host, port: input.ports.paymentProvider },
    },
    { name: SMTP_LINK, upstream: { host: input.host, port: input.ports.smtp } },
  ];
}

/**
 * The same URL with its host and port replaced by a link's. Parameters that
 * name the server another way (`host`, `hostaddr`, `port`) go too, or the
 * driver would prefer them and bypass the link; labLinkPlan refuses such URLs
 * already, this keeps the rewrite safe on its own.
 *
 * @example
 * throughLink('postgres://pg@127.0.0.1:5432/eo_order', { host: '127.0.0.1', port: 40123 });
 * // 'postgres://pg@127.0.0.1:40123/eo_order'
 */
export function throughLink(url: string, link: Endpoint): string {
  const parsed = new URL(url);
  parsed.hostname = link.host;
  parsed.port = String(link.port);
  // Touched only when needed: rewriting the query re-encodes it (a space as +, which libpq reads literally).
  for (const name of SERVER_PARAMETERS) {
    if (parsed.searchParams.has(name)) parsed.searchParams.delete(name);
  }
  return parsed.toString();
}

/** A link's address by name; a missing one is a wiring bug, not a fallback to the direct address. */
export function linkAt(links: StackLinks, name: string): Endpoint {
  const link = links[name];
  if (link === undefined) throw new Error(`No lab link named ${name}: open the links first.`);
  return link;
}

/**
 * The links' addresses by name, from what the proxy reports.
 *
 * @example
 * const links = stackLinks(proxy.links()); // { 'order-postgres': { host: '127.0.0.1', port: 40123 }, ... }
 */
export function stackLinks(opened: readonly { name: string; listen: Endpoint }[]): StackLinks {
  return Object.fromEntries(opened.map((link) => [link.name, link.listen]));
}
