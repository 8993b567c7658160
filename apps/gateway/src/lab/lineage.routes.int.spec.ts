// The lineage and stuck-order routes reach the console, which assembles them,
// with the client's Authorization header; without a console they answer 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeConsole, type FakeConsole } from './fake-console.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test.js';
import { labGateway } from './lab-gateway.js';

const ORDER_ID = '0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10';

let fakeConsole: FakeConsole;
let gateway: GatewayUnderTest;
let withoutConsole: GatewayUnderTest;
beforeAll(async () => {
  fakeConsole = await startFakeConsole();
  gateway = await startGatewayUnderTest({
    options: { extension: labGateway({ consoleUrl: fakeConsole.url }) },
  });
  withoutConsole = await startGatewayUnderTest({
    options: { extension: labGateway({ consoleUrl: undefined }) },
  });
});
afterAll(async () => {
  await fakeConsole.close();
  await gateway.close();
  await withoutConsole.close();
});

describe('the lineage routes through the gateway', () => {
  it.each([
    [`/api/orders/${ORDER_ID}/lineage`, `/api/console/orders/${ORDER_ID}/lineage`],
    ['/api/admin/stuck', '/admin/stuck'],
  ])('GET %s reaches the console at %s, Authorization included', async (path, consolePath) => {
    // When a client asks the gateway, with a bearer token
    const response = await fetch(gateway.url + path, {
      headers: { authorization: 'Bearer a-token-of-sixteen-or-more' },
    });

    // Then the console got the request at its own path, token and all
    expect(response.status).toBe(200);
    const received = fakeConsole.received.at(-1);
    expect(received?.url).toBe(consolePath);
    expect(received?.headers['authorization']).toBe('Bearer a-token-of-sixteen-or-more');
  });

  it('does not let a path parameter add a segment on the way', async () => {
    await fetch(`${gateway.url}/api/orders/a%2Fb/lineage`);
    expect(fakeConsole.received.at(-1)?.url).toBe('/api/console/orders/a%2Fb/lineage');
  });

  it.each([`/api/orders/${ORDER_ID}/lineage`, '/api/admin/stuck'])(
    'GET %s answers 503 UPSTREAM_UNAVAILABLE on a stack without the console',
    async (path) => {
      const response = await fetch(withoutConsole.url + path);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        detail: expect.stringContaining('STACK_CONSOLE=false') as string,
      });
    },
  );
});
