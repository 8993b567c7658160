// The lab's network: a set of named links, each a small TCP proxy of its own
// between one client process and one upstream. The supervisor opens it in lab
// mode and gives each process a link's address instead of the upstream's.
import { findFreePort } from '@effectively-once/postgres';
import type { LinkFault, LinkStats } from './link.schemas.js';
import { openLink, type Endpoint, type LinkOptions, type ProxyLink } from './proxy-link.js';

export interface FaultProxy {
  /** The address a client process is given for link `name`; throws for an unknown name. */
  address(name: string): Endpoint;
  /** False for an unknown link name. */
  has(name: string): boolean;
  apply(name: string, fault: LinkFault): LinkStats;
  clear(name: string): LinkStats;
  links(): LinkStats[];
  close(): Promise<void>;
}

/** A bind lost to a listener that came between the probe and the bind is retried on another port. */
const OPEN_ATTEMPTS = 3;

/**
 * A link on a port picked outside the kernel's ephemeral range. A refuse
 * fault closes the listener and binds the same port again afterwards; on an
 * ephemeral port, an outgoing connection (even a client retrying this very
 * link, connected to itself) could hold it meanwhile, and the link would stay
 * closed for as long as that socket lived.
 */
async function openOnFreePort(link: LinkOptions, host: string): Promise<ProxyLink> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openLink({ ...link, listen: { host, port: await findFreePort(host) } });
    } catch (error) {
      const inUse = (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
      if (!inUse || attempt >= OPEN_ATTEMPTS) throw error;
    }
  }
}

/**
 * Opens every link at once; each listens on a free port of `listenHost`.
 *
 * @example
 * const proxy = await openFaultProxy({ listenHost: '127.0.0.1', links: [{ name: 'smtp', upstream: { host: '127.0.0.1', port: 2525 } }] });
 * proxy.apply('smtp', { kind: 'blackhole', durationMs: 10_000 });
 */
export async function openFaultProxy(input: {
  listenHost: string;
  links: readonly Omit<LinkOptions, 'listen'>[];
}): Promise<FaultProxy> {
  const opened = await Promise.all(
    input.links.map((link) => openOnFreePort(link, input.listenHost)),
  );
  const byName = new Map<string, ProxyLink>(opened.map((link) => [link.name, link]));
  const get = (name: string): ProxyLink => {
    const link = byName.get(name);
    if (link === undefined) throw new Error(`No link named ${name}.`);
    return link;
  };
  return {
    address: (name) => get(name).address,
    has: (name) => byName.has(name),
    apply(name, fault) {
      const link = get(name);
      link.apply(fault);
      return link.stats();
    },
    clear(name) {
      const link = get(name);
      link.clear();
      return link.stats();
    },
    links: () => opened.map((link) => link.stats()),
    close: async () => {
      await Promise.all(opened.map((link) => link.close()));
    },
  };
}
