// The gateway's routes and the OpenAPI document describe the same API.
import { buildOpenApiDocument } from '../openapi/build-openapi-document.js';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type GatewayInstance } from '../app.js';
import { NOWHERE_UPSTREAMS as UPSTREAMS } from '../testing/nowhere-upstreams.js';
import { FORWARDED_ROUTES } from './forward.routes.js';
// lab:begin
import { labGateway } from '../lab/lab-gateway.js';
// lab:end

const METHODS = { get: 'GET', put: 'PUT', post: 'POST', delete: 'DELETE', patch: 'PATCH' } as const;

/** Every operation of the document, with the path in Fastify's `:param` form. */
function documentedRoutes(): { method: HTTPMethods; url: string }[] {
  return Object.entries(buildOpenApiDocument().paths ?? {}).flatMap(([path, item]) =>
    Object.entries(METHODS)
      .filter(([key]) => key in item)
      .map(([, method]) => ({ method, url: path.replace(/\{(\w+)\}/g, ':$1') })),
  );
}

let app: GatewayInstance;
beforeAll(async () => {
  app = buildApp({
    upstreams: UPSTREAMS,
    upstreamTimeoutMs: 1_000,
    healthTimeoutMs: 1_000,
    requestTimeoutMs: 1_000,
    logger: false,
    // lab:begin
    // The document has the lab's lineage paths, which the lab's extension answers.
    extension: labGateway({ consoleUrl: undefined }),
    // lab:end
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

  it.each(['/', '/api'])('links the main routes from GET %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      links: { openapi: '/api/openapi.json', health: '/api/health', orders: '/api/orders' },
    });
  });
});
