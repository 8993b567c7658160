// The service's operational routes on real dependencies.
import { describe, expect, it } from 'vitest';
import { createOrderTestEnv } from './testing/order-test-env.js';

const env = await createOrderTestEnv();

describe('buildApp', () => {
  it('is ready when its database and its event store answer', async () => {
    const response = await env.app.inject({ method: 'GET', url: '/ready' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', eventStore: 'ok' },
    });
  });

  it('serves its metrics in the Prometheus text format', async () => {
    const response = await env.app.inject({ method: 'GET', url: '/metrics' });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('# TYPE eo_consumer_messages_total counter');
  });
});
