import { ProblemDetails } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './create-http-server.js';
import { registerHealthRoutes } from './health.routes.js';

function appWith(checks: Record<string, () => Promise<void>>) {
  const app = createHttpServer({ service: 'test', logger: false });
  registerHealthRoutes(app, { checks });
  return app;
}

describe('registerHealthRoutes', () => {
  it('says the process is alive on /health, whatever its dependencies say', async () => {
    const app = appWith({ database: () => Promise.reject(new Error('connection refused')) });

    const response = await app.inject({ method: 'GET', url: '/health' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    await app.close();
  });

  it('says ready with every check passing', async () => {
    const app = appWith({ database: () => Promise.resolve(), eventStore: () => Promise.resolve() });

    const response = await app.inject({ method: 'GET', url: '/ready' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', eventStore: 'ok' },
    });
    await app.close();
  });

  it('answers 503 NOT_READY naming each failing check and why', async () => {
    // Given one dependency that answers and one that refuses
    const app = appWith({
      database: () => Promise.resolve(),
      eventStore: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
    });

    // When readiness is asked
    const response = await app.inject({ method: 'GET', url: '/ready' });

    // Then the problem lists the failing check only
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(ProblemDetails.parse(response.json())).toMatchObject({
      status: 503,
      code: 'NOT_READY',
      detail: 'Failing: eventStore.',
      errors: [{ path: 'eventStore', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    });
    await app.close();
  });
});
