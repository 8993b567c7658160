// The gateway's routes and the OpenAPI document describe the same API.
import { buildOpenApiDocument } from '../openapi/build-openapi-document.js';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type GatewayInstance } from '../app.js';
import { consoleTimeoutMs } from './console.routes.js';
import { FORWARDED_ROUTES } from './forward.routes.js';

const METHODS = { get: 'GET', put: 'PUT', post: 'POST', delete: 'DELETE', patch: 'PATCH' } as const;

/** Every operation of the document, with the path in Fastify's `:param` form. */
function documentedRoutes(): { method: HTTPMethods; url: string }[] {
  return Object.entries(buildOpenApiDocument().paths ?? {}).flatMap(([path, item]) =>
    Object.entries(METHODS)
      .filter(([key]) => key in item)
      .map(([, method]) => ({ method, url: path.replace(/\{(\w+)\}/g, ':$1') })),
  );
}

// Nothing listens at these URLs: no test here forwards a request.
const NOWHERE = 'http://127.0.0.1:9';
const UPSTREAMS = {
  order: NOWHERE,
  inventory: NOWHERE,
  payment: NOWHERE,
  notification: NOWHERE,
  'payment-provider': NOWHERE,
  'mail-sink': NOWHERE,
};

let app: GatewayInstance;
beforeAll(async () => {
  app = buildApp({
    upstreams: UPSTREAMS,
    upstreamTimeoutMs: 1_000,
    healthTimeoutMs: 1_000,
    requestTimeoutMs: 1_000,
    logger: false,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

describe('the gateway and its OpenAPI document', () => {
  it('has a route for every documented operation', () => {
    for (const route of documentedRoutes()) {
      expect(app.hasRoute(route), `${route.method} ${route.url}`).toBe(true);
    }
  });

  it('documents every route it forwards', () => {
    const documented = documentedRoutes();
    for (const route of FORWARDED_ROUTES) {
      expect(documented).toContainEqual({ method: route.method, url: route.path });
    }
  });

  it('serves the document at /api/openapi.json', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it.each(['/', '/api'])('links the main routes from GET %s without a console', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      links: { openapi: '/api/openapi.json', health: '/api/health', orders: '/api/orders' },
    });
  });
});

describe('the gateway with a console', () => {
  it('leaves / to the console and keeps the JSON index at /api', async () => {
    // Given a gateway with a console (nothing listens there: nothing is forwarded)
    const withConsole = buildApp({
      upstreams: UPSTREAMS,
      consoleUrl: NOWHERE,
      upstreamTimeoutMs: 1_000,
      healthTimeoutMs: 1_000,
      requestTimeoutMs: 1_000,
      logger: false,
    });
    try {
      // When its routes are listed, then the console's prefixes are there and /api is the index
      await withConsole.ready();
      for (const route of [
        { method: 'GET', url: '/' },
        { method: 'GET', url: '/assets/*' },
        { method: 'GET', url: '/api/console/*' },
        { method: 'POST', url: '/api/console/*' },
      ] as const) {
        expect(withConsole.hasRoute(route), `${route.method} ${route.url}`).toBe(true);
      }
      const index = await withConsole.inject({ method: 'GET', url: '/api' });
      expect(index.json()).toMatchObject({ links: { health: '/api/health' } });
    } finally {
      await withConsole.close();
    }
  });
});

describe('consoleTimeoutMs', () => {
  it.each([
    ['text/event-stream', 0],
    ['text/event-stream, */*;q=0.1', 0],
    ['application/json', 10_000],
    [undefined, 10_000],
  ] as const)('given Accept %s, then %d ms', (accept, timeoutMs) => {
    expect(consoleTimeoutMs(accept, 10_000)).toBe(timeoutMs);
  });
});
