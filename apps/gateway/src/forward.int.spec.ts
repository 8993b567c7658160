// A service that is down, hung or drops the connection: the client gets a
// problem document quickly, never a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedServiceUrl } from './testing/fake-service.js';
import { startGatewayUnderTest, type GatewayUnderTest } from './testing/gateway-under-test.js';

const UPSTREAM_TIMEOUT_MS = 300;

let gateway: GatewayUnderTest;
beforeAll(async () => {
  // Given the order service is down; the others run
  gateway = await startGatewayUnderTest({
    upstreams: { order: [await closedServiceUrl()] },
    upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
  });
});
afterAll(async () => {
  await gateway.close();
});

async function timed(request: Promise<Response>): Promise<{ response: Response; ms: number }> {
  const started = performance.now();
  const response = await request;
  return { response, ms: performance.now() - started };
}

async function expectProblem(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(await response.json()).toMatchObject({
    type: `urn:effectively-once:problem:${code.toLowerCase().replaceAll('_', '-')}`,
    title: expect.any(String) as unknown,
    status,
    detail: expect.any(String) as unknown,
    code,
  });
}

describe('when the service behind a route fails', () => {
  it('answers 503 UPSTREAM_UNAVAILABLE at once when the service is down', async () => {
    const { response, ms } = await timed(fetch(`${gateway.url}/api/orders`));
    await expectProblem(response, 503, 'UPSTREAM_UNAVAILABLE');
    expect(ms).toBeLessThan(1_000);
  });

  it('answers 503 for a POST with a body too, without waiting for the body to be read', async () => {
    const { response, ms } = await timed(
      fetch(`${gateway.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
        body: JSON.stringify({ customerEmail: 'ada@example.com', items: [] }),
      }),
    );
    await expectProblem(response, 503, 'UPSTREAM_UNAVAILABLE');
    expect(ms).toBeLessThan(1_000);
  });

  it('answers 504 UPSTREAM_TIMEOUT once the timeout passes when the service does not answer', async () => {
    const { response, ms } = await timed(
      fetch(`${gateway.url}/api/inventory`, { headers: { 'x-fake-behaviour': 'hang' } }),
    );
    await expectProblem(response, 504, 'UPSTREAM_TIMEOUT');
    expect(ms).toBeGreaterThanOrEqual(UPSTREAM_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(UPSTREAM_TIMEOUT_MS + 2_000);
  });

  it('answers 502 UPSTREAM_UNAVAILABLE when the service drops the connection', async () => {
    const { response } = await timed(
      fetch(`${gateway.url}/api/emails`, { headers: { 'x-fake-behaviour': 'drop' } }),
    );
    await expectProblem(response, 502, 'UPSTREAM_UNAVAILABLE');
  });

  it('does not retry on the client’s behalf', async () => {
    const before = gateway.fakes.payment.received.length;
    await fetch(`${gateway.url}/api/payments/ledger-x`, { headers: { 'x-fake-status': '503' } });
    expect(gateway.fakes.payment.received).toHaveLength(before + 1);
  });
});
