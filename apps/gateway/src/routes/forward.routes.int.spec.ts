import { randomUUID } from 'node:crypto';
import type { ServiceName } from '@effectively-once/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/raw-request.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test.js';

let gateway: GatewayUnderTest;
beforeAll(async () => {
  gateway = await startGatewayUnderTest();
});
afterAll(async () => {
  await gateway.close();
});

function lastRequestTo(service: ServiceName) {
  return gateway.fakes[service].received.at(-1);
}

const orderId = randomUUID();

describe('the gateway forwards each public route to its service', () => {
  it.each([
    ['GET', '/api/orders?limit=5&cursor=abc', 'order', '/orders?limit=5&cursor=abc'],
    ['POST', '/api/orders', 'order', '/orders'],
    ['GET', `/api/orders/${orderId}`, 'order', `/orders/${orderId}`],
    ['POST', `/api/orders/${orderId}/cancel`, 'order', `/orders/${orderId}/cancel`],
    ['GET', '/api/inventory', 'inventory', '/inventory'],
    ['GET', '/api/inventory/SKU-RED-MUG', 'inventory', '/inventory/SKU-RED-MUG'],
    ['POST', '/api/inventory/SKU-RED-MUG/restock', 'inventory', '/inventory/SKU-RED-MUG/restock'],
    ['GET', '/api/payments/ledger', 'payment-provider', '/ledger'],
    ['GET', `/api/payments/${orderId}`, 'payment', `/payments/${orderId}`],
    [
      'GET',
      `/api/notifications?orderId=${orderId}`,
      'notification',
      `/notifications?orderId=${orderId}`,
    ],
    ['GET', '/api/emails?to=ada%40example.com', 'mail-sink', '/emails?to=ada%40example.com'],
  ] as const)('%s %s → %s %s', async (method, path, service, upstreamPath) => {
    // When a client calls the gateway
    const response = await fetch(gateway.url + path, { method });
    // Then the service got the same method at its own path and answered through the gateway
    expect(response.status).toBe(200);
    expect(response.headers.get('x-fake-service')).toBe(service);
    expect(lastRequestTo(service)).toMatchObject({ method, url: upstreamPath });
  });

  it('GET /api/health/:service forwards to that service’s /health', async () => {
    const response = await fetch(`${gateway.url}/api/health/payment-provider`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('what passes through', () => {
  it('hands on the POST body byte for byte with the Idempotency-Key and other headers', async () => {
    // Given an order request with an idempotency key
    const body =
      '{"customerEmail":"ada@example.com",  "items":[{"sku":"SKU-RED-MUG","quantity":2}]}';
    const key = `key-${randomUUID()}`;
    // When it is posted through the gateway
    const response = await fetch(`${gateway.url}/api/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'idempotency-key': key,
        'x-request-id': 'trace-me-123',
      },
      body,
    });
    // Then the order service got the very same body and headers
    expect(response.status).toBe(200);
    expect(lastRequestTo('order')).toMatchObject({
      method: 'POST',
      url: '/orders',
      body,
      headers: expect.objectContaining({
        'content-type': 'application/json; charset=utf-8',
        'idempotency-key': key,
        'x-request-id': 'trace-me-123',
      }) as unknown,
    });
    // And the client sees the request id it sent
    expect(response.headers.get('x-request-id')).toBe('trace-me-123');
  });

  it('gives each request an id the service sees when the client sent none', async () => {
    const response = await fetch(`${gateway.url}/api/inventory`);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastRequestTo('inventory')?.headers['x-request-id']).toBe(requestId);
  });

  it("returns the service's status, headers and body unchanged", async () => {
    // Given the order service refuses a reused idempotency key, marked as a replay
    const response = await fetch(`${gateway.url}/api/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-fake-status': '422',
        'x-fake-replayed': 'true',
      },
      body: '{"a":1}',
    });
    // Then the client gets the service's answer as it was
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(await response.json()).toEqual({
      service: 'order',
      method: 'POST',
      url: '/orders',
      body: '{"a":1}',
    });
  });

  it('translates a Location header to the public path', async () => {
    const response = await fetch(`${gateway.url}/api/orders`, {
      method: 'POST',
      headers: { 'x-fake-status': '201', 'x-fake-location': `/orders/${orderId}` },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/orders/${orderId}`);
  });

  it('keeps an encoded "/" inside its path parameter', async () => {
    await fetch(`${gateway.url}/api/orders/a%2Fb`);
    expect(lastRequestTo('order')?.url).toBe('/orders/a%2Fb');
  });
});

describe('what does not pass', () => {
  it('answers an unknown route itself with a 404 problem', async () => {
    const before = gateway.fakes.order.received.length;
    const response = await fetch(`${gateway.url}/api/orders/${orderId}/refund`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(gateway.fakes.order.received).toHaveLength(before);
  });

  it('refuses a path parameter that climbs out of its route', async () => {
    const before = gateway.fakes.order.received.length;
    // Sent raw: fetch would resolve the ".." itself before sending.
    const response = await rawRequest(gateway.url, 'POST', '/api/orders/%2E%2E/cancel');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'BAD_REQUEST' });
    expect(gateway.fakes.order.received).toHaveLength(before);
  });

  it('refuses a method the route does not have', async () => {
    const response = await fetch(`${gateway.url}/api/inventory/SKU-RED-MUG`, { method: 'DELETE' });
    expect(response.status).toBe(404);
  });
});
