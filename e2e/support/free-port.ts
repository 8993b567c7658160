// A port nobody listens on right now, for a process a test or bench starts
// itself (the supervisor picks its own with STACK_PORTS=auto).
import { createServer } from 'node:net';

/**
 * @example
 * const gatewayPort = await freePort();
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
