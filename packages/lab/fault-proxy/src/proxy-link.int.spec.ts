// The link's sockets against a real TCP echo server: what a client on the
// other side of each fault sees, measured, not assumed.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openLink, type ProxyLink } from './proxy-link.js';

let echo: Server;
let echoPort: number;
let link: ProxyLink;
const clients: Socket[] = [];

beforeAll(async () => {
  echo = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  const address = echo.address();
  echoPort = typeof address === 'object' && address !== null ? address.port : 0;
  link = await openLink({ name: 'echo', upstream: { host: '127.0.0.1', port: echoPort } });
});

afterEach(() => {
  link.clear();
  for (const client of clients.splice(0)) client.destroy();
});

afterAll(async () => {
  await link.close();
  echo.close();
});

async function dial(): Promise<Socket> {
  const socket = connect(link.address);
  clients.push(socket);
  await once(socket, 'connect');
  return socket;
}

/** Writes `payload` and resolves with the echo once all of it is back, and how long that took. */
async function roundTrip(socket: Socket, payload: Buffer): Promise<{ echoed: Buffer; ms: number }> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  let received = 0;
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= payload.length) {
        socket.off('data', onData);
        resolve({ echoed: Buffer.concat(chunks), ms: Date.now() - started });
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(payload);
  });
}

/** How a connection attempt ends: connected, or the error code. */
async function attempt(to: ProxyLink = link): Promise<string> {
  const socket = connect(to.address);
  clients.push(socket);
  return new Promise((resolve) => {
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.once('connect', () => {
      // An accepted-then-reset connection fails on its first exchange.
      socket.write('ping');
      socket.once('data', () => resolve('connected'));
      socket.once('close', () => resolve('closed'));
    });
  });
}

/** Tries again until a connection gets through: the listener reopens asynchronously after a refuse. */
async function eventuallyConnected(to: ProxyLink = link, withinMs = 10_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const outcome = await attempt(to);
    if (outcome === 'connected' || Date.now() > deadline) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const listeningServers = () =>
  process.getActiveResourcesInfo().filter((resource) => resource === 'TCPServerWrap').length;

describe('a link without faults', () => {
  it('when a client sends bytes, then the upstream gets them and the answer comes back whole, counted', async () => {
    const before = link.stats();
    const socket = await dial();
    const payload = Buffer.alloc(200_000, 7);
    const { echoed } = await roundTrip(socket, payload);
    expect(echoed.equals(payload)).toBe(true);
    const after = link.stats();
    expect(after.bytesUp - before.bytesUp).toBe(200_000);
    expect(after.bytesDown - before.bytesDown).toBe(200_000);
    expect(after.openConnections).toBeGreaterThanOrEqual(1);
    expect(after.connections).toBe(before.connections + 1);
  });
});

describe('latency', () => {
  it('given 150 ms of latency, when a client round-trips, then it takes at least 300 ms (each direction)', async () => {
    const socket = await dial();
    link.apply({ kind: 'latency', delayMs: 150, durationMs: 10_000 });
    const { ms, echoed } = await roundTrip(socket, Buffer.from('hello'));
    expect(echoed.toString()).toBe('hello');
    expect(ms).toBeGreaterThanOrEqual(295);
    expect(link.stats().faultsApplied.latency).toBeGreaterThanOrEqual(1);
  });

  it('given latency whose duration has passed, then round trips are no longer delayed', async () => {
    const socket = await dial();
    link.apply({ kind: 'latency', delayMs: 5_000, durationMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const { ms } = await roundTrip(socket, Buffer.from('x'));
    // Still in force, the round trip would take 10 s: half of one delay leaves room for a stall.
    expect(ms).toBeLessThan(2_500);
    expect(link.stats().active).toEqual([]);
  });
});

describe('reset', () => {
  it('given an open connection, when a reset is applied, then the client sees ECONNRESET', async () => {
    const socket = await dial();
    await roundTrip(socket, Buffer.from('warm'));
    const failed = once(socket, 'error');
    const resetsBefore = link.stats().resets;
    link.apply({ kind: 'reset', durationMs: 10_000 });
    const [error] = (await failed) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNRESET');
    expect(link.stats().resets).toBeGreaterThan(resetsBefore);
  });

  it('given a reset window, when a client connects in it, then it is reset; once it is cleared, it gets through', async () => {
    link.apply({ kind: 'reset', durationMs: 10_000 });
    expect(['ECONNRESET', 'closed']).toContain(await attempt());
    link.clear();
    expect(await attempt()).toBe('connected');
  });
});

describe('blackhole', () => {
  it('given a blackhole, when a client sends, then nothing comes back until it clears, and then all of it', async () => {
    const socket = await dial();
    link.apply({ kind: 'blackhole', durationMs: 600 });
    const payload = Buffer.alloc(50_000, 3);
    const { echoed, ms } = await roundTrip(socket, payload);
    expect(ms).toBeGreaterThanOrEqual(550);
    expect(echoed.equals(payload)).toBe(true);
  });

  it('given a blackhole, when it is cleared early, then the held bytes go through at once', async () => {
    const socket = await dial();
    link.apply({ kind: 'blackhole', durationMs: 60_000 });
    const trip = roundTrip(socket, Buffer.from('held'));
    setTimeout(() => link.clear(), 200);
    const { echoed, ms } = await trip;
    expect(echoed.toString()).toBe('held');
    expect(ms).toBeGreaterThanOrEqual(150);
  });

  it('given a blackhole, when a client sends and then ends, then the end is held too and comes after the data once it clears', async () => {
    const socket = await dial();
    link.apply({ kind: 'blackhole', durationMs: 10_000 });
    const received: string[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk.toString()));
    socket.on('end', () => received.push('<end>'));
    const closed = once(socket, 'close');
    socket.end('held');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The echo server ends its side when it sees the client's FIN: a FIN let through shows here.
    expect(received).toEqual([]);
    link.clear();
    await closed;
    expect(received.join('')).toBe('held<end>');
  });

  it('given a blackhole, when a client ends with nothing queued, then its end is held until the blackhole clears', async () => {
    const socket = await dial();
    link.apply({ kind: 'blackhole', durationMs: 10_000 });
    let ended = false;
    socket.on('end', () => (ended = true));
    const closed = once(socket, 'close');
    socket.end();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Had the FIN gone through, the echo server would have ended its side by now.
    expect(ended).toBe(false);
    link.clear();
    await closed;
    expect(ended).toBe(true);
  });

  it('given a blackhole, when a client connects, then it is accepted but gets no answer', async () => {
    link.apply({ kind: 'blackhole', durationMs: 10_000 });
    const started = Date.now();
    const outcome = attempt();
    setTimeout(() => link.clear(), 400);
    expect(await outcome).toBe('connected');
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });
});

describe('trickle', () => {
  it('given 20 kB/s, when 10 kB round-trip, then it takes about 0.4 s and nothing is lost', async () => {
    const socket = await dial();
    link.apply({ kind: 'trickle', bytesPerSecond: 20_000, durationMs: 10_000 });
    const payload = Buffer.alloc(10_000, 9);
    const { echoed, ms } = await roundTrip(socket, payload);
    expect(echoed.equals(payload)).toBe(true);
    // Five slices of 2 kB, 100 ms apart: the last leaves 400 ms after the first.
    // The echo comes back slice by slice at the same pace, so the two directions overlap.
    expect(ms).toBeGreaterThanOrEqual(380);
  });
});

describe('refuse', () => {
  it('given refuse, then open connections are reset, new ones refused, and after it the link listens again on its port', async () => {
    const open = await dial();
    const failed = once(open, 'error');
    link.apply({ kind: 'refuse', durationMs: 10_000 });
    const [error] = (await failed) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNRESET');
    expect(await attempt()).toBe('ECONNREFUSED');
    link.clear();
    expect(await eventuallyConnected()).toBe('connected');
  });

  it('given refuse then clear, when the link is closed at once, then nothing listens on its port after close() resolved', async () => {
    const before = listeningServers();
    const own = await openLink({ name: 'own', upstream: { host: '127.0.0.1', port: echoPort } });
    own.apply({ kind: 'refuse', durationMs: 10_000 });
    own.clear();
    await own.close();
    // Time for a reopen that close() did not wait for to bind.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await attempt(own)).toBe('ECONNREFUSED');
    expect(listeningServers()).toBe(before);
  });

  it('given refuse, when it is applied again while the listener reopens, then clients are refused, not accepted and reset', async () => {
    const own = await openLink({ name: 'own', upstream: { host: '127.0.0.1', port: echoPort } });
    try {
      own.apply({ kind: 'refuse', durationMs: 10_000 });
      own.clear();
      own.apply({ kind: 'refuse', durationMs: 10_000 });
      // Time for the reopen to bind: the refuse must close what it bound.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await attempt(own)).toBe('ECONNREFUSED');
      own.clear();
      expect(await eventuallyConnected(own)).toBe('connected');
    } finally {
      await own.close();
    }
  });

  it('given refuse, when another server holds its port as it ends, then the link listens again once the port is free', async () => {
    const own = await openLink({ name: 'own', upstream: { host: '127.0.0.1', port: echoPort } });
    const squatter = createServer((socket) => socket.destroy());
    try {
      own.apply({ kind: 'refuse', durationMs: 10_000 });
      // The link closes its listener asynchronously: take the port as soon as it is free.
      for (let tries = 0; ; tries += 1) {
        const taken = await new Promise<boolean>((resolve) => {
          squatter.once('error', () => resolve(false));
          squatter.listen(own.address.port, own.address.host, () => resolve(true));
        });
        if (taken) break;
        if (tries > 50) throw new Error('the link never freed its port');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      own.clear();
      // The link's listen fails with EADDRINUSE and is tried again; meanwhile clients reach the squatter.
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await attempt(own)).not.toBe('connected');
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
      expect(await eventuallyConnected(own, 2_000)).toBe('connected');
    } finally {
      if (squatter.listening) squatter.close();
      await own.close();
    }
  });

  // Node runs timers on its monotonic loop clock, so the one that ends a fault
  // can fire up to a millisecond before the fault's end by the wall clock, and
  // the wall clock can pass the end while the link handles it. The clock below
  // stands still while the fault is applied, then reads `behindMs` before the
  // end at the timer and one millisecond more at each read after: each case
  // puts the passing at another point of the handler.
  it.each([1, 2, 3, 4, 5, 6])(
    'given refuse whose timer fires %i ms early by a clock that passes its end meanwhile, then the link listens again',
    async (behindMs) => {
      const start = Date.now();
      const durationMs = 50;
      let read = (): number => start;
      const own = await openLink({
        name: 'own',
        upstream: { host: '127.0.0.1', port: echoPort },
        clock: () => read(),
      });
      try {
        own.apply({ kind: 'refuse', durationMs });
        let reads = 0;
        read = () => start + durationMs - behindMs + reads++;
        // Nothing else reads the clock meanwhile: no client, no stats.
        await new Promise((resolve) => setTimeout(resolve, durationMs + 150));
        expect(await eventuallyConnected(own, 1_000)).toBe('connected');
        expect(own.stats().active).toEqual([]);
      } finally {
        await own.close();
      }
    },
  );
});
