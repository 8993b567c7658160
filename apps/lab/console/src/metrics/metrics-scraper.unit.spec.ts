import { createServer, type Server } from 'node:http';
import type { StackTarget } from '@effectively-once/lab-stack';
import {
  createHttpServer,
  registerMetricsRoute,
  type FastifyZodInstance,
} from '@effectively-once/service-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { testStackTarget } from '../testing/stack-target.fixtures.js';
import { createMetricsScraper, metricsTargets } from './metrics-scraper.js';
import { deliveries, recordedMetrics, type RecordedDelivery } from './testing/recorded-metrics.js';

const reservation = 'inventory-reservation-v1';

const stack = testStackTarget();

const apps: FastifyZodInstance[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  const open = servers.splice(0);
  for (const server of open) server.closeAllConnections();
  await Promise.all(open.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A service's real GET /metrics (service-kit's route over its registry), on a free port. */
async function metricsEndpoint(
  service: string,
  settled: readonly RecordedDelivery[],
): Promise<string> {
  const app = createHttpServer({ service, logger: false });
  registerMetricsRoute(app, recordedMetrics(service, settled));
  apps.push(app);
  return `${await app.listen({ host: '127.0.0.1', port: 0 })}/metrics`;
}

/** A server that accepts the request and never answers. */
async function silentEndpoint(): Promise<string> {
  const server = createServer(() => {});
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return `http://127.0.0.1:${String(address.port)}/metrics`;
}

/** A URL nothing listens on: a port that was free a moment ago. */
async function deadEndpoint(): Promise<string> {
  const app = createHttpServer({ service: 'gone', logger: false });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  await app.close();
  return `${url}/metrics`;
}

describe('metricsTargets', () => {
  it('names the four saga services, at /metrics on their ports', () => {
    expect(metricsTargets(stack)).toEqual([
      { service: 'order', url: 'http://127.0.0.1:3001/metrics' },
      { service: 'inventory', url: 'http://127.0.0.1:3002/metrics' },
      { service: 'payment', url: 'http://127.0.0.1:3003/metrics' },
      { service: 'notification', url: 'http://127.0.0.1:3004/metrics' },
    ]);
  });

  it('adds inventory-2 when the stack runs it (lab mode)', () => {
    const lab: StackTarget = { ...stack, ports: { ...stack.ports, inventory2: 3008 } };

    expect(metricsTargets(lab).map((target) => target.service)).toEqual([
      'order',
      'inventory',
      'inventory-2',
      'payment',
      'notification',
    ]);
    expect(metricsTargets(lab)[2]?.url).toBe('http://127.0.0.1:3008/metrics');
  });

  it('adds every replica the stack runs (STACK_REPLICAS), and inventory-2 once when it is one', () => {
    const replicated: StackTarget = {
      ...stack,
      ports: {
        ...stack.ports,
        inventory2: 3012,
        replicas: { 'payment-2': 3103, 'inventory-2': 3012 },
      },
    };

    expect(metricsTargets(replicated)).toEqual([
      { service: 'order', url: 'http://127.0.0.1:3001/metrics' },
      { service: 'inventory', url: 'http://127.0.0.1:3002/metrics' },
      { service: 'inventory-2', url: 'http://127.0.0.1:3012/metrics' },
      { service: 'payment', url: 'http://127.0.0.1:3003/metrics' },
      { service: 'notification', url: 'http://127.0.0.1:3004/metrics' },
      { service: 'payment-2', url: 'http://127.0.0.1:3103/metrics' },
    ]);
  });

  it('scrapes the host the gateway is on, when the stack listens on another one', () => {
    const elsewhere: StackTarget = { ...stack, gatewayUrl: 'http://10.0.0.7:3000' };
    const onIpv6: StackTarget = { ...stack, gatewayUrl: 'http://[::1]:3000/' };

    expect(metricsTargets(elsewhere)[0]?.url).toBe('http://10.0.0.7:3001/metrics');
    expect(metricsTargets(onIpv6)[0]?.url).toBe('http://[::1]:3001/metrics');
  });
});

describe('createMetricsScraper', () => {
  it('sums what the reachable processes report and names the ones that failed', async () => {
    // Given two inventory processes that settled deliveries, one process that
    // never answers and one that is down
    const targets = [
      {
        service: 'inventory',
        url: await metricsEndpoint(
          'inventory',
          deliveries(3, { consumer: reservation, outcome: 'applied', durationMs: 4 }),
        ),
      },
      {
        service: 'inventory-2',
        url: await metricsEndpoint('inventory', [
          { consumer: reservation, outcome: 'duplicate', durationMs: 4 },
        ]),
      },
      { service: 'payment', url: await silentEndpoint() },
      { service: 'notification', url: await deadEndpoint() },
    ];
    const scrapedAt = new Date('2026-11-30T10:00:00.000Z');
    // Long enough for a loaded machine to answer from loopback, short enough
    // that the silent one costs the test little.
    const scraper = createMetricsScraper({ targets, timeoutMs: 1500, now: () => scrapedAt });

    // When the summary is asked for
    const summary = await scraper.summary();

    // Then the reachable ones are summed and each failure says why
    expect(summary.scrapedAt).toBe('2026-11-30T10:00:00.000Z');
    expect(summary.sources).toEqual([
      { service: 'inventory', ok: true, error: null },
      { service: 'inventory-2', ok: true, error: null },
      { service: 'payment', ok: false, error: 'no answer within 1500 ms' },
      { service: 'notification', ok: false, error: expect.any(String) as unknown },
    ]);
    expect(summary.consumers).toEqual([
      expect.objectContaining({
        consumer: reservation,
        deliveries: 4,
        applied: 3,
        duplicates: 1,
        duplicateRate: 0.25,
      }) as unknown,
    ]);
  });

  it('reports an HTTP error as a failed source', async () => {
    // Given a process whose /metrics does not exist
    const app = createHttpServer({ service: 'order', logger: false });
    apps.push(app);
    const url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/metrics`;

    // When scraped
    const summary = await createMetricsScraper({ targets: [{ service: 'order', url }] }).summary();

    // Then the status is the error, and there is nothing to summarize
    expect(summary.sources).toEqual([{ service: 'order', ok: false, error: 'HTTP 404' }]);
    expect(summary.consumers).toEqual([]);
  });
});
