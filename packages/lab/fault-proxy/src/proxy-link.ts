// One link of the fault proxy: a listening socket that forwards every
// connection to one upstream (a service's PostgreSQL, the card processor),
// through the faults applied to it. Each fault clears by itself.
import { createServer, connect, type Server, type Socket } from 'node:net';
import {
  connectionFate,
  inForce,
  nextExpiry,
  NO_FAULTS,
  resetsOpenConnections,
  withFault,
  type LinkFaults,
} from './link-faults.js';
import {
  LINK_FAULT_KINDS,
  type LinkFault,
  type LinkFaultKind,
  type LinkStats,
} from './link.schemas.js';
import { pump } from './pump.js';

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

export interface LinkOptions {
  readonly name: string;
  readonly upstream: Endpoint;
  /** Where to listen; port 0 (the default) picks a free one, kept for the link's life. */
  readonly listen?: { readonly host: string; readonly port?: number };
  /** The wall clock, epoch ms; `Date.now` unless a test scripts it. */
  readonly clock?: () => number;
}

export interface ProxyLink {
  readonly name: string;
  /** The address clients are given instead of the upstream's. */
  readonly address: Endpoint;
  apply(fault: LinkFault): void;
  /** Clears every fault now. */
  clear(): void;
  stats(): LinkStats;
  close(): Promise<void>;
}

interface Connection {
  readonly client: Socket;
  readonly upstream: Socket;
}

/** Sends an RST, as a peer that crashed or a middlebox that dropped the flow would. */
function reset(socket: Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/**
 * Opens a link and starts listening.
 *
 * @example
 * const link = await openLink({ name: 'order-postgres', upstream: { host: '127.0.0.1', port: 5432 } });
 * link.apply({ kind: 'latency', delayMs: 200, durationMs: 10_000 });
 */
export async function openLink(options: LinkOptions): Promise<ProxyLink> {
  const host = options.listen?.host ?? '127.0.0.1';
  const now = options.clock ?? (() => Date.now());
  let faults: LinkFaults = NO_FAULTS;
  let closed = false;
  let server: Server | undefined;
  let expiryTimer: NodeJS.Timeout | undefined;
  const open = new Set<Connection>();
  const wakers = new Set<() => void>();
  const counts = {
    connections: 0,
    bytesUp: 0,
    bytesDown: 0,
    resets: 0,
  };
  const applied = Object.fromEntries(LINK_FAULT_KINDS.map((kind) => [kind, 0])) as Record<
    LinkFaultKind,
    number
  >;

  const waitUntil = (at: number): Promise<void> =>
    new Promise((resolve) => {
      if (closed) {
        resolve();
        return;
      }
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, at - now()));
      wakers.add(wake);
    });

  function accept(client: Socket): void {
    if (closed) {
      // Accepted by a listener that close() is about to shut.
      client.destroy();
      return;
    }
    counts.connections += 1;
    const fate = connectionFate(faults, now());
    if (fate !== 'accept') {
      // `refuse` closes the listener: only a connection in that very moment arrives here.
      counts.resets += 1;
      client.on('error', () => undefined);
      reset(client);
      return;
    }
    const upstream = connect({ ...options.upstream, allowHalfOpen: true });
    const connection: Connection = { client, upstream };
    open.add(connection);
    // Either side failing takes the whole connection down, with an RST: a
    // client must see a broken connection as broken, never as a clean end.
    const fail = () => {
      reset(client);
      reset(upstream);
    };
    client.on('error', fail);
    upstream.on('error', fail);
    const forget = () => {
      if (client.destroyed && upstream.destroyed) open.delete(connection);
    };
    client.on('close', () => {
      if (!upstream.destroyed && !client.readableEnded) fail();
      forget();
    });
    upstream.on('close', () => {
      if (!client.destroyed && !upstream.readableEnded) fail();
      forget();
    });
    pump(client, upstream, {
      now,
      faults: () => faults,
      waitUntil,
      forwarded: (n) => (counts.bytesUp += n),
    });
    pump(upstream, client, {
      now,
      faults: () => faults,
      waitUntil,
      forwarded: (n) => (counts.bytesDown += n),
    });
  }

  /** Binds a fresh listener; it only becomes `server` once the caller knows it is still wanted. */
  async function bind(port: number): Promise<{ next: Server; bound: number }> {
    const next = createServer({ allowHalfOpen: true }, accept);
    const bound = await listen(next, host, port);
    return { next, bound };
  }

  const first = await bind(options.listen?.port ?? 0);
  server = first.next;
  const port = first.bound;

  const wantsListening = () => !closed && connectionFate(faults, now()) !== 'refuse';
  const settled = () => wantsListening() === (server !== undefined);
  let syncing: Promise<void> | undefined;

  /**
   * Refuse closes the listening socket, so a client gets a real ECONNREFUSED;
   * it reopens on the same port after. One sync runs at a time and re-reads
   * the wanted state after every await: faults change and close() is called
   * while a listen or a close is under way, and two syncs racing each other
   * left a listener open during a refuse or after close().
   */
  function syncListener(): Promise<void> {
    if (syncing === undefined && !settled()) {
      syncing = reconcile().finally(() => {
        syncing = undefined;
        // A change may have come in after the loop's last look and before this ran.
        if (!settled()) void syncListener();
      });
    }
    return syncing ?? Promise.resolve();
  }

  async function reconcile(): Promise<void> {
    while (!settled()) {
      if (server !== undefined) {
        const stopping = server;
        server = undefined;
        await new Promise<void>((resolve) => stopping.close(() => resolve()));
        continue;
      }
      try {
        // Becomes the listener only if it is still wanted; the next turn closes it otherwise.
        server = (await bind(port)).next;
      } catch {
        // The port may still be held a moment; a fault change or close() wakes this early.
        await waitUntil(now() + 100);
      }
    }
  }

  /**
   * Looks at the faults again after a change or an expiry. The clock is read
   * once: a timer can fire just before a fault's end by the wall clock (timers
   * run on Node's monotonic loop clock), and with a read per step the fault
   * was kept by the first read while the next one, past its end, found
   * nothing left to time. No timer was armed and a refuse that had ended by
   * the clock left the listener closed until the link's next change. Read
   * once, a fault kept is always a fault timed.
   */
  function changed(): void {
    const at = now();
    faults = inForce(faults, at);
    for (const wake of [...wakers]) wake();
    void syncListener();
    clearTimeout(expiryTimer);
    const next = nextExpiry(faults, at);
    if (next !== undefined && !closed) {
      expiryTimer = setTimeout(changed, Math.max(0, next - at));
    }
  }

  return {
    name: options.name,
    address: { host, port },
    apply(fault) {
      faults = withFault(faults, fault, now());
      applied[fault.kind] += 1;
      if (resetsOpenConnections(fault)) {
        for (const connection of open) {
          counts.resets += 1;
          reset(connection.client);
          reset(connection.upstream);
        }
      }
      changed();
    },
    clear() {
      faults = NO_FAULTS;
      changed();
    },
    stats: () => ({
      name: options.name,
      listen: { host, port },
      upstream: { ...options.upstream },
      openConnections: open.size,
      ...counts,
      faultsApplied: { ...applied },
      active: inForce(faults, now()).map((fault) => ({
        ...fault,
        since: new Date(fault.since).toISOString(),
        until: new Date(fault.until).toISOString(),
      })),
    }),
    async close() {
      closed = true;
      clearTimeout(expiryTimer);
      for (const wake of [...wakers]) wake();
      for (const connection of open) {
        connection.client.destroy();
        connection.upstream.destroy();
      }
      // Closes the listener, or waits for a reopen in flight to bind and close it.
      await syncListener();
    },
  };
}
