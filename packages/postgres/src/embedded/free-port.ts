import { createServer } from 'node:net';

/**
 * Asks the kernel for a TCP port nobody listens on, so that two runs on one
 * machine never share a server. The port is free when this returns; the caller
 * retries in the rare case someone takes it before PostgreSQL binds it.
 */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ port: 0, host }, () => {
      const address = probe.address();
      probe.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('The kernel did not report the port it assigned.'));
      });
    });
  });
}
