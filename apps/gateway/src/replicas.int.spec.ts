// A service of several replicas behind the gateway: requests are spread over
// them, a replica that is down is stepped around (a request it never received
// goes to the next, POSTs with their bodies included), and /api/health counts
// the service ready while one replica is.
import { randomUUID } from 'node:crypto';
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
