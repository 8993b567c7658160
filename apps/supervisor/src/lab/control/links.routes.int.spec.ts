import { openFaultProxy, type FaultProxy } from '@effectively-once/fault-proxy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkRoutes } from './links.routes.js';
import { buildLabControlApp } from './server.js';

const token = 'lab-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };
let proxy: FaultProxy;
let app: ReturnType<typeof buildLabControlApp>;

beforeAll(async () => {
  // Nothing listens upstream: the routes only apply and report faults.
  proxy = await openFaultProxy({
    listenHost: '127.0.0.1',
    links: [
      { name: 'order-postgres', upstream: { host: '127.0.0.1', port: 9 } },
      { name: 'smtp', upstream: { host: '127.0.0.1', port: 9 } },
    ],
  });
  app = buildLabControlApp({ token, routes: [linkRoutes(proxy)] });
});

// Each test starts from links without faults, whatever ran before it.
beforeEach(() => {
  for (const link of proxy.links()) proxy.clear(link.name);
});

const faultsApplied = (name: string) =>
  proxy.links().find((link) => link.name === name)?.faultsApplied;

afterAll(async () => {
  await app.close();
  await proxy.close();
});

describe('/lab/links', () => {
  it('given the lab token, when GET /lab, then links is one of the topics', async () => {
    const response = await app.inject({ method: 'GET', url: '/lab', headers: auth });
    expect(response.json()).toEqual({ topics: ['links'] });
  });

  it('when GET /lab/links, then every link with where it listens, where it forwards and no fault', async () => {
    const response = await app.inject({ method: 'GET', url: '/lab/links', headers: auth });
    expect(response.statusCode).toBe(200);
    const { links } = response.json<{ links: { name: string; active: unknown[] }[] }>();
    expect(links.map((link) => link.name)).toEqual(['order-postgres', 'smtp']);
    expect(links[0]).toMatchObject({
      listen: { host: '127.0.0.1', port: proxy.address('order-postgres').port },
      upstream: { host: '127.0.0.1', port: 9 },
      openConnections: 0,
      active: [],
    });
  });

  it('when a fault is posted, then the link reports it in force until its end, and counts it', async () => {
    const before = faultsApplied('order-postgres')?.latency ?? 0;
    const response = await app.inject({
      method: 'POST',
      url: '/lab/links/order-postgres/faults',
      headers: auth,
      payload: { kind: 'latency', delayMs: 250, durationMs: 60_000 },
    });
    expect(response.statusCode).toBe(200);
    const stats = response.json<{
      active: { kind: string; delayMs: number; until: string }[];
      faultsApplied: Record<string, number>;
    }>();
    expect(stats.active).toMatchObject([{ kind: 'latency', delayMs: 250 }]);
    expect(Date.parse(stats.active[0]?.until ?? '')).toBeGreaterThan(Date.now() + 50_000);
    expect(stats.faultsApplied['latency']).toBe(before + 1);
  });

  it('given a fault in force, when the faults are deleted, then none is in force', async () => {
    const posted = await app.inject({
      method: 'POST',
      url: '/lab/links/order-postgres/faults',
      headers: auth,
      payload: { kind: 'latency', delayMs: 250, durationMs: 60_000 },
    });
    expect(posted.json<{ active: unknown[] }>().active).toHaveLength(1);
    const response = await app.inject({
      method: 'DELETE',
      url: '/lab/links/order-postgres/faults',
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'order-postgres', active: [] });
  });

  it('given an unknown kind or a missing duration, then 400 VALIDATION_FAILED and nothing applied', async () => {
    const before = faultsApplied('smtp');
    for (const payload of [{ kind: 'flood', durationMs: 1_000 }, { kind: 'reset' }]) {
      const response = await app.inject({
        method: 'POST',
        url: '/lab/links/smtp/faults',
        headers: auth,
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(faultsApplied('smtp')).toEqual(before);
  });

  it('given an unknown link, then 404 LINK_NOT_FOUND as a problem document', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/lab/links/nowhere/faults',
      headers: auth,
      payload: { kind: 'reset', durationMs: 0 },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'LINK_NOT_FOUND' });
  });

  it('given no token, then 401 and no fault applied', async () => {
    const before = faultsApplied('smtp');
    const response = await app.inject({
      method: 'POST',
      url: '/lab/links/smtp/faults',
      payload: { kind: 'refuse', durationMs: 1_000 },
    });
    expect(response.statusCode).toBe(401);
    expect(proxy.links().find((link) => link.name === 'smtp')?.active).toEqual([]);
    expect(faultsApplied('smtp')).toEqual(before);
  });
});
