// The HTTP edge through the real gateway in front of the real services, as
// `pnpm start` runs them: requests a client can get wrong are answered with
// the documented problem, an x-request-id, and no effect. The requests an HTTP
// client refuses to send (a NUL in a header, a raw "..", a stalled body) are
// tested over raw sockets in apps/gateway/src/http-edge.int.spec.ts.
import { randomUUID } from 'node:crypto';
import { ProblemDetails } from '@effectively-once/contracts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../support/api-client.js';

let gatewayUrl: string;
let api: ApiClient;
beforeAll(() => {
  gatewayUrl = inject('gatewayUrl');
  api = apiClient(gatewayUrl);
});

async function expectProblem(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('x-request-id')).toMatch(/\S/);
  expect(ProblemDetails.parse(await response.json())).toMatchObject({ status, code });
}

const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    body,
  });

describe('the HTTP edge of the stack', () => {
  it('answers a body over 1 MiB with 413 every time, on each POST route, and takes no effect', async () => {
    const sku = uniqueSku('big');
    const big = JSON.stringify({ quantity: 1, padding: 'x'.repeat(1_100_000) });
    for (const path of [
      '/api/orders',
      `/api/orders/${randomUUID()}/cancel`,
      `/api/inventory/${sku}/restock`,
      `/api/inventory/${sku}/restock`,
    ]) {
      await expectProblem(await postJson(path, big), 413, 'PAYLOAD_TOO_LARGE');
    }
    expect((await fetch(`${gatewayUrl}/api/inventory/${sku}`)).status).toBe(404);
  });

  it('answers a text/plain body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await postJson(
      `/api/inventory/${uniqueSku('plain')}/restock`,
      '{"quantity":1}',
      { 'content-type': 'text/plain' },
    );
    await expectProblem(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a "__proto__" key in valid JSON with 400 VALIDATION_FAILED, restocking nothing', async () => {
    const sku = uniqueSku('proto');
    const response = await postJson(
      `/api/inventory/${sku}/restock`,
      '{"quantity":1,"__proto__":{"isAdmin":true}}',
    );
    await expectProblem(response, 400, 'VALIDATION_FAILED');
    expect((await fetch(`${gatewayUrl}/api/inventory/${sku}`)).status).toBe(404);
  });

  it('answers a 10 KB order id with 414 URI_TOO_LONG and a 70 KB header with 431 HEADERS_TOO_LARGE', async () => {
    await expectProblem(
      await fetch(`${gatewayUrl}/api/orders/${'a'.repeat(10_000)}`),
      414,
      'URI_TOO_LONG',
    );
    await expectProblem(
      await fetch(`${gatewayUrl}/api/orders`, { headers: { 'x-big': 'a'.repeat(70_000) } }),
      431,
      'HEADERS_TOO_LARGE',
    );
  });

  it('marks every answer but the first as replayed when one Idempotency-Key is posted at once many times', async () => {
    const sku = uniqueSku('replay');
    await api.restock(sku, 50);
    const key = randomUUID();
    const body = JSON.stringify({
      customerEmail: 'ada@example.com',
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_approve',
    });
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => postJson('/api/orders', body, { 'idempotency-key': key })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    const replayed = responses.filter((r) => r.headers.get('idempotent-replayed') === 'true');
    expect(replayed).toHaveLength(11);
  });
});
