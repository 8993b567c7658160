import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedServiceUrl } from '../testing/fake-service.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test.js';

// Long enough for six fakes to answer the first probe on a busy machine (at
// 300 ms a clean-clone CI run saw 503 for an all-ready stack while the lab-free
// template's tests ran beside it), short enough to keep the hang test quick.
const HEALTH_TIMEOUT_MS = 1_000;

describe('GET /api/health', () => {
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest({ healthTimeoutMs: HEALTH_TIMEOUT_MS });
  });
  afterEach(() => {
    Object.values(gateway.fakes).forEach((fake) => {
      fake.setReadiness('ready');
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('answers 200 ready when every service is ready', async () => {
    const response = await fetch(`${gateway.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      services: {
        order: 'ready',
        inventory: 'ready',
        payment: 'ready',
        notification: 'ready',
        'payment-provider': 'ready',
        'mail-sink': 'ready',
      },
    });
  });

  it('answers 503 naming a service that is not ready and one that does not answer', async () => {
    // Given the payment service reports it is not ready and the mail sink hangs
    gateway.fakes.payment.setReadiness('not_ready');
    gateway.fakes['mail-sink'].setReadiness('hang');
    // When the gateway is asked
    const started = performance.now();
    const response = await fetch(`${gateway.url}/api/health`);
    const ms = performance.now() - started;
    // Then it answers 503 within about one health timeout, naming both
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: 'not_ready',
      services: {
        order: 'ready',
        inventory: 'ready',
        payment: 'not_ready',
        notification: 'ready',
        'payment-provider': 'ready',
        'mail-sink': 'unreachable',
      },
    });
    expect(ms).toBeLessThan(HEALTH_TIMEOUT_MS + 2_000);
  });
});

describe('GET /api/health with a service down', () => {
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest({
      upstreams: { notification: [await closedServiceUrl()] },
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('reports it unreachable', async () => {
    const response = await fetch(`${gateway.url}/api/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'not_ready',
      services: { notification: 'unreachable', order: 'ready' },
    });
  });

  it('answers 503 UPSTREAM_UNAVAILABLE for its own /health', async () => {
    const response = await fetch(`${gateway.url}/api/health/notification`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('refuses an unknown service name', async () => {
    const response = await fetch(`${gateway.url}/api/health/billing`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
