import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

// Ports handed out for a server that binds them later (PostgreSQL here, and a
// whole stack's services through the supervisor). Asking the kernel for port 0
// gives one from its ephemeral range, the same range every outgoing connection
// takes its local port from: by the time the server binds, a PostgreSQL or HTTP
// client on the machine may hold it, and listen fails with EADDRINUSE (seen in
// CI: the supervisor's lab-control server, bound after PostgreSQL had started
// and its pools had connected). So ports are picked below that range, where
// only listeners live, and probed.
const LOWEST_PICKED_PORT = 10_000;
const PICK_ATTEMPTS = 50;
const DEFAULT_EPHEMERAL_LOW = 32_768;

/**
 * A TCP port nobody listens on now, outside the kernel's ephemeral range when
 * the machine leaves room below it (the kernel's choice otherwise). The caller
 * retries in the rare case someone takes it before it is bound.
 *
 * @example
 * const port = await findFreePort();
 */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  const ephemeralLow = await ephemeralRangeStart();
  if (ephemeralLow > LOWEST_PICKED_PORT + 1_000) {
    for (let attempt = 0; attempt < PICK_ATTEMPTS; attempt++) {
      const port =
        LOWEST_PICKED_PORT + Math.floor(Math.random() * (ephemeralLow - LOWEST_PICKED_PORT));
      if ((await probe(host, port)) !== undefined) return port;
    }
  }
  const port = await probe(host, 0);
  if (port === undefined) throw new Error(`No free TCP port on ${host}.`);
  return port;
}

async function ephemeralRangeStart(): Promise<number> {
  try {
    const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    const low = Number(range.trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : DEFAULT_EPHEMERAL_LOW;
  } catch {
    // Not Linux: 49152 on macOS and Windows, 32768 is the cautious guess.
    return DEFAULT_EPHEMERAL_LOW;
  }
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
