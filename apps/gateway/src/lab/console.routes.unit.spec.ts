// The console behind the gateway: where its routes are, and how long each waits.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { NOWHERE, NOWHERE_UPSTREAMS as UPSTREAMS } from '../testing/nowhere-upstreams.js';
import { consoleTimeoutMs } from './console.routes.js';
import { labGateway } from './lab-gateway.js';

describe('the gateway with a console', () => {
  it('leaves / to the console and keeps the JSON index at /api', async () => {
    // Given a gateway with a console (nothing listens there: nothing is forwarded)
    const withConsole = buildApp({
      upstreams: UPSTREAMS,
      extension: labGateway({ consoleUrl: NOWHERE }),
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
