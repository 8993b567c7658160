// The picker hands out ports a server can bind later, and keeps away from the
// range outgoing connections take their local ports from.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findFreePort, pickRange } from './free-port.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function listen(port: number): Promise<void> {
  const server = createServer();
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, resolve);
  });
}

function ephemeralRange(): { low: number; high: number } | undefined {
  try {
    const [low = 0, high = 0] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return { low, high };
  } catch {
    return undefined;
  }
}

const range = ephemeralRange();
const roomOutside = await pickRange();

describe('findFreePort', () => {
  it('gives ports that can be bound, each time a different one while the earlier ones are held', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 20; i++) {
      const port = await findFreePort();
      await listen(port);
      ports.push(port);
    }
    expect(new Set(ports).size).toBe(20);
  });

  it.runIf(range !== undefined && roomOutside !== undefined)(
    'picks outside the kernel ephemeral range, where no outgoing connection holds a port',
    async () => {
      const { low, high } = range ?? { low: 0, high: 0 };
      for (let i = 0; i < 20; i++) {
        const port = await findFreePort();
        expect(port).toBeGreaterThanOrEqual(10_000);
        expect(port < low || port > high, `${String(port)} in ${String(low)}-${String(high)}`).toBe(
          true,
        );
      }
    },
  );
});
