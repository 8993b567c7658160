import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

// Ports handed out for a server that binds them later (PostgreSQL here, a whole
// stack's services through the supervisor, the lab's proxy links). Asking the
// kernel for port 0 gives one from its ephemeral range, the same range every
// outgoing connection takes its local port from: by the time the server binds,
// a PostgreSQL or HTTP client on the machine may hold it, and listen fails with
// EADDRINUSE (seen in CI: the supervisor's lab-control server, bound after
// PostgreSQL had started and its pools had connected). So ports are picked
// outside that range, where only listeners live, and probed.
const LOWEST_PICKED_PORT = 10_000;
const HIGHEST_PORT = 65_535;
/** Less room than this outside the ephemeral range, and the kernel picks (port 0). */
const ENOUGH_ROOM = 1_000;
const PICK_ATTEMPTS = 50;
/** Linux's default ephemeral range; macOS and Windows use 49152-65535. */
const DEFAULT_EPHEMERAL_RANGE = { low: 32_768, high: 60_999 };
/** On the Fetch standard's list of blocked ports: Node's fetch() refuses to call them. */
const FETCH_BLOCKED_PORTS = new Set([10_080]);

/**
 * A TCP port nobody listens on now, outside the kernel's ephemeral range when
 * the machine leaves room there (the kernel's choice otherwise). The caller
 * retries in the rare case someone takes it before it is bound.
 *
 * @example
 * const port = await findFreePort();
 */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  const range = await pickRange();
  if (range !== undefined) {
    for (let attempt = 0; attempt < PICK_ATTEMPTS; attempt++) {
      const port = range.from + Math.floor(Math.random() * (range.to - range.from + 1));
      if (FETCH_BLOCKED_PORTS.has(port)) continue;
      if ((await probe(host, port)) !== undefined) return port;
    }
  }
  const port = await probe(host, 0);
  if (port === undefined) throw new Error(`No free TCP port on ${host}.`);
  return port;
}

/**
 * Where ports are picked: below the ephemeral range, else above it, else
 * nowhere (undefined: the kernel picks).
 */
export async function pickRange(): Promise<{ from: number; to: number } | undefined> {
  const { low, high } = await ephemeralRange();
  if (low - LOWEST_PICKED_PORT >= ENOUGH_ROOM) return { from: LOWEST_PICKED_PORT, to: low - 1 };
  if (HIGHEST_PORT - high >= ENOUGH_ROOM) return { from: high + 1, to: HIGHEST_PORT };
  return undefined;
}

async function ephemeralRange(): Promise<{ low: number; high: number }> {
  try {
    const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    const [low, high] = text.trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low !== undefined && high !== undefined)
      return { low, high };
  } catch {
    // Not Linux: below Linux's default range is below the others' as well.
  }
  return DEFAULT_EPHEMERAL_RANGE;
}

/** Binds and closes `port`; the port bound, or undefined when it is taken. */
function probe(host: string, port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(undefined);
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('The kernel did not report the port it assigned.'));
      });
    });
  });
}
