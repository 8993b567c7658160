// A service of several replicas behind the gateway: requests are spread over
// them, a replica that is down is stepped around (a request it never received
// goes to the next, POSTs with their bodies included), and /api/health counts
// the service ready while one replica is.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedServiceUrl, startFakeService, type FakeService } from './testing/fake-service.js';
import { startGatewayUnderTest, type GatewayUnderTest } from './testing/gateway-under-test.js';

let first: FakeService;
let second: FakeService;
let liveOrder: FakeService;
let gateway: GatewayUnderTest;
beforeAll(async () => {
  // Given payment runs as two replicas, and order as one live replica and one down
  [first, second] = await Promise.all([
    startFakeService('payment-1'),
    startFakeService('payment-2'),
  ]);
  liveOrder = await startFakeService('order-1');
  const deadOrder = await closedServiceUrl();
  gateway = await startGatewayUnderTest({
    upstreams: { payment: [first.url, second.url], order: [deadOrder, liveOrder.url] },
  });
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([first.close(), second.close(), liveOrder.close()]);
});

const placeOrder = (key: string) =>
  fetch(`${gateway.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ customerEmail: 'ada@example.com', key }),
  });

describe('a service of several replicas', () => {
  it('spreads requests over its replicas', async () => {
    for (let request = 0; request < 20; request++) {
      const response = await fetch(`${gateway.url}/api/payments/${randomUUID()}`);
      expect(response.status).toBe(200);
    }

    expect(first.received.length).toBeGreaterThan(0);
    expect(second.received.length).toBeGreaterThan(0);
    expect(first.received.length + second.received.length).toBe(20);
  });

  it('sends a POST the dead replica refused to the live one, body and key intact, once', async () => {
    const keys = Array.from({ length: 10 }, () => randomUUID());

    const answers = await Promise.all(keys.map((key) => placeOrder(key)));

    expect(answers.map((answer) => answer.status)).toEqual(keys.map(() => 200));
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as {
      service: string;
      body: string;
    }[];
    expect(bodies.map((body) => body.service)).toEqual(keys.map(() => 'order-1'));
    expect(bodies.map((body) => (JSON.parse(body.body) as { key: string }).key)).toEqual(keys);
    const arrivals = liveOrder.received.map((request) => request.headers['idempotency-key']);
    expect(keys.map((key) => arrivals.filter((arrived) => arrived === key).length)).toEqual(
      keys.map(() => 1),
    );
  });

  it('reports the service ready while one of its replicas is', async () => {
    second.setReadiness('not_ready');
    try {
      const health = (await (await fetch(`${gateway.url}/api/health`)).json()) as {
        services: Record<string, string>;
      };

      expect(health.services).toMatchObject({ payment: 'ready', order: 'ready' });
    } finally {
      second.setReadiness('ready');
    }
  });
});

/** A replica killed mid-request: it takes each request and drops the connection without an answer. */
async function startDyingReplica(): Promise<{ url: string; received: string[]; server: Server }> {
  const received: string[] = [];
  const server = createServer((request) => {
    received.push(request.method ?? '');
    request.socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { url: `http://127.0.0.1:${String(address.port)}`, received, server };
}

describe('a replica that dies while it holds the request', () => {
  it('has a GET asked again of the next replica, and a POST answered 502, never sent twice', async () => {
    // Given order runs as a replica that drops every request it took, and a live one
    const dying = await startDyingReplica();
    const live = await startFakeService('order-live');
    const orders = await startGatewayUnderTest({ upstreams: { order: [dying.url, live.url] } });
    try {
      // When clients read orders, and place orders
      const reads = await Promise.all(
        Array.from({ length: 10 }, () => fetch(`${orders.url}/api/orders/${randomUUID()}`)),
      );
      const places = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${orders.url}/api/orders`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ customerEmail: 'ada@example.com' }),
          }),
        ),
      );

      // Then every read is answered by the live replica, though the dying one took some
      expect(reads.map((read) => read.status)).toEqual(reads.map(() => 200));
      expect(dying.received.filter((method) => method === 'GET').length).toBeGreaterThan(0);
      // And each POST the dying replica took is a 502, not sent on: the live one has the rest
      const postsTaken = dying.received.filter((method) => method === 'POST').length;
      expect(postsTaken).toBeGreaterThan(0);
      expect(places.filter((place) => place.status === 502).length).toBe(postsTaken);
      expect(live.received.filter((request) => request.method === 'POST').length).toBe(
        10 - postsTaken,
      );
    } finally {
      await orders.close();
      await live.close();
      await new Promise((resolve) => dying.server.close(resolve));
    }
  });
});
