// /api/admin/:service/* through a real gateway to fake services: the path,
// method, body and Authorization header arrive as sent; failures become the
// same problem documents as on every other forwarded route.
import type { ServiceName } from '@effectively-once/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedServiceUrl } from '../testing/fake-service.js';
import { rawRequest } from '../testing/raw-request.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test.js';

const UPSTREAM_TIMEOUT_MS = 300;
const bearer = 'Bearer lab-token-0123456789abcdef';

let gateway: GatewayUnderTest;
beforeAll(async () => {
  // Given the payment service is down; the others run
  gateway = await startGatewayUnderTest({
    upstreams: { payment: [await closedServiceUrl()] },
    upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
  });
});
afterAll(async () => {
  await gateway.close();
});

const lastRequestTo = (service: ServiceName) => gateway.fakes[service].received.at(-1);
const receivedCount = () =>
  Object.values(gateway.fakes).reduce((sum, fake) => sum + fake.received.length, 0);

describe('the gateway forwards /api/admin/:service/* to the service’s /admin/*', () => {
  it.each([
    ['GET', '/api/admin/order/parked', 'order', '/admin/parked'],
    ['POST', '/api/admin/inventory/parked/replay', 'inventory', '/admin/parked/replay'],
    [
      'GET',
      '/api/admin/notification/parked?consumer=notification-email-v1&limit=5',
      'notification',
      '/admin/parked?consumer=notification-email-v1&limit=5',
    ],
    [
      'POST',
      '/api/admin/inventory/consumers/inventory-demand-v1/markers/prune',
      'inventory',
      '/admin/consumers/inventory-demand-v1/markers/prune',
    ],
    ['POST', '/api/admin/order/parked/evt%2D1/replay', 'order', '/admin/parked/evt%2D1/replay'],
  ] as const)('%s %s → %s %s', async (method, path, service, upstreamPath) => {
    // When an operator calls the gateway with the admin token
    const response = await fetch(gateway.url + path, {
      method,
      headers: { authorization: bearer },
    });
    // Then that service got the request at its own admin path, with the token
    expect(response.status).toBe(200);
    expect(response.headers.get('x-fake-service')).toBe(service);
    expect(lastRequestTo(service)).toMatchObject({
      method,
      url: upstreamPath,
      headers: expect.objectContaining({ authorization: bearer }) as unknown,
    });
  });

  it('hands on the body byte for byte and returns the service’s answer unchanged', async () => {
    const body = '{"messageIds":["m-1"],  "dryRun":true}';
    const response = await fetch(`${gateway.url}/api/admin/inventory/consumers/c-v1/replay`, {
      method: 'POST',
      headers: {
        authorization: bearer,
        'content-type': 'application/json',
        'x-fake-status': '201',
        'x-fake-location': '/admin/consumers/c-v1/replay/7',
      },
      body,
    });
    expect(response.status).toBe(201);
    expect(lastRequestTo('inventory')).toMatchObject({
      url: '/admin/consumers/c-v1/replay',
      body,
    });
    // A Location the service sends comes back in its public form
    expect(response.headers.get('location')).toBe('/api/admin/inventory/consumers/c-v1/replay/7');
  });

  it('leaves the token check to the service: a request without one arrives, and the refusal comes back', async () => {
    const response = await fetch(`${gateway.url}/api/admin/order/parked`, {
      headers: { 'x-fake-status': '401' },
    });
    expect(response.status).toBe(401);
    expect(lastRequestTo('order')?.url).toBe('/admin/parked');
    expect(lastRequestTo('order')?.headers['authorization']).toBeUndefined();
  });

  it('does not retry on the operator’s behalf', async () => {
    const before = gateway.fakes.notification.received.length;
    const response = await fetch(`${gateway.url}/api/admin/notification/parked/replay`, {
      method: 'POST',
      headers: { 'x-fake-status': '503' },
    });
    expect(response.status).toBe(503);
    expect(gateway.fakes.notification.received).toHaveLength(before + 1);
  });
});

describe('what does not pass', () => {
  it.each(['payment-provider', 'mail-sink', 'billing'])(
    'answers /api/admin/%s/* itself with a 404 problem',
    async (name) => {
      const before = receivedCount();
      const response = await fetch(`${gateway.url}/api/admin/${name}/parked`, {
        headers: { authorization: bearer },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        detail: expect.stringContaining('order, inventory, payment, notification') as unknown,
      });
      expect(receivedCount()).toBe(before);
    },
  );

  it('refuses a path that climbs out of /admin', async () => {
    const before = receivedCount();
    // Sent raw: fetch would resolve the ".." itself before sending.
    const response = await rawRequest(gateway.url, 'GET', '/api/admin/inventory/%2E%2E/inventory');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'BAD_REQUEST' });
    expect(receivedCount()).toBe(before);
  });
});

describe('when the service fails', () => {
  it('answers 503 UPSTREAM_UNAVAILABLE when it is down', async () => {
    const response = await fetch(`${gateway.url}/api/admin/payment/parked`, {
      headers: { authorization: bearer },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      instance: '/api/admin/payment/parked',
    });
  });

  it('answers 504 UPSTREAM_TIMEOUT when it does not answer in time', async () => {
    const started = performance.now();
    const response = await fetch(`${gateway.url}/api/admin/inventory/lab`, {
      headers: { 'x-fake-behaviour': 'hang' },
    });
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(UPSTREAM_TIMEOUT_MS + 2_000);
  });
});
