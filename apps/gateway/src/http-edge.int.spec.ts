// What the gateway answers itself, below its routes: bodies over the limit,
// bodies that stop arriving, requests Node's parser refuses, URLs the router
// refuses, dot segments. Every answer is a problem document with an
// x-request-id, and none of these requests reaches a service.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProblemDetails } from '@effectively-once/contracts';
import { rawHttp, type RawResponse } from '@effectively-once/service-kit/testing';
import { startGatewayUnderTest, type GatewayUnderTest } from './testing/gateway-under-test.js';

// Long enough that an ordinary client's 2 MiB upload is refused with 413
// before the timeout on a busy machine (at 400 ms a clean-clone CI run got
// 408 for two of eight while the lab-free template's tests ran beside it),
// short enough to keep the timeout tests quick.
const REQUEST_TIMEOUT_MS = 1_000;
const OVER_LIMIT = 1_048_577;

interface LogLine {
  level: number;
  msg: string;
  err?: { code?: string };
}
const logged: LogLine[] = [];

let gateway: GatewayUnderTest;
beforeAll(async () => {
  gateway = await startGatewayUnderTest({
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    logStream: { write: (line) => logged.push(JSON.parse(line) as LogLine) },
  });
});
afterAll(async () => {
  await gateway.close();
});

function reachedServices(): number {
  return Object.values(gateway.fakes).reduce((sum, fake) => sum + fake.received.length, 0);
}

function expectProblem(response: RawResponse, status: number, code: string): ProblemDetails {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(response.headers['x-request-id']).toMatch(/\S/);
  const problem = ProblemDetails.parse(JSON.parse(response.body));
  expect(problem).toMatchObject({ status, code });
  return problem;
}

function post(path: string, headers: string, body = ''): string {
  return `POST ${path} HTTP/1.1\r\nHost: gateway\r\n${headers}\r\n${body}`;
}

describe('a body over 1 MiB', () => {
  it.each([
    '/api/orders',
    '/api/orders/b1f4c1de-0c1e-4d9b-9a43-0f8e7c2e7a10/cancel',
    '/api/inventory/SKU-RED-MUG/restock',
  ])(
    'POST %s with a Content-Length over the limit gets 413 before its body is read',
    async (path) => {
      const before = reachedServices();
      // Only the first bytes are sent: the answer must not wait for the rest.
      const request = post(
        path,
        `Content-Type: application/json\r\nIdempotency-Key: k-413\r\nContent-Length: ${String(2 * OVER_LIMIT)}\r\n`,
        '{"customerEmail":"',
      );
      expectProblem(await rawHttp(gateway.url, request), 413, 'PAYLOAD_TOO_LARGE');
      expect(reachedServices()).toBe(before);
    },
  );

  it('a chunked body is counted as it arrives and refused once past the limit', async () => {
    const before = reachedServices();
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 17 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const request = post(
      '/api/orders',
      'Content-Type: application/json\r\nIdempotency-Key: k-413\r\nTransfer-Encoding: chunked\r\n',
      chunks.join(''),
    );
    expectProblem(await rawHttp(gateway.url, request), 413, 'PAYLOAD_TOO_LARGE');
    expect(reachedServices()).toBe(before);
  });

  it('is answered 413 every time through an ordinary client, never 502 or a reset', async () => {
    const body = JSON.stringify({ customerEmail: 'x'.repeat(2 * OVER_LIMIT) });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const response = await fetch(`${gateway.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k-413' },
        body,
      });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual(Array.from({ length: 8 }, () => 413));
  });

  it('a body of exactly 1 MiB is still forwarded whole', async () => {
    const body = 'y'.repeat(OVER_LIMIT - 1);
    const response = await fetch(`${gateway.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    expect(gateway.fakes.order.received.at(-1)?.body).toHaveLength(OVER_LIMIT - 1);
  });
});

describe('a body that stops arriving', () => {
  it('gets 408 REQUEST_TIMEOUT soon after REQUEST_TIMEOUT_MS, and is not forwarded', async () => {
    const before = reachedServices();
    const request = post(
      '/api/orders',
      'Content-Type: application/json\r\nIdempotency-Key: k-408\r\nContent-Length: 10\r\n',
      '{"',
    );
    const response = await rawHttp(gateway.url, request, { timeoutMs: 5_000 });
    expectProblem(response, 408, 'REQUEST_TIMEOUT');
    expect(response.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(response.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
    expect(reachedServices()).toBe(before);
  });
});

// The client broke its own request: Fastify stamps the stream's error 400, but
// it keeps Node's code ECONNRESET, once logged as a 503 "database" failure.
describe('a client that breaks its request mid-body', () => {
  it.each([
    ['stalls', false, 408, 'REQUEST_TIMEOUT'],
    ['half-closes', true, 400, 'BAD_REQUEST'],
  ])(
    'a client that %s gets its 4xx, and the gateway logs no failure',
    async (_, endAfterWrite, status, code) => {
      logged.length = 0;
      const before = reachedServices();
      const request = post(
        '/api/orders',
        'Content-Type: application/json\r\nIdempotency-Key: k-broken\r\nContent-Length: 100\r\n',
        '{"a":1',
      );
      const response = await rawHttp(gateway.url, request, { timeoutMs: 5_000, endAfterWrite });
      expectProblem(response, status, code);

      const streamError = await vi.waitFor(() => {
        const line = logged.find((entry) => entry.err?.code === 'ECONNRESET');
        if (line === undefined) throw new Error('the broken request stream was not logged yet');
        return line;
      });
      expect(streamError.level).toBeLessThan(50);
      expect(logged.filter((line) => line.level >= 50)).toEqual([]);
      expect(reachedServices()).toBe(before);
    },
  );
});

describe('requests refused below the routes', () => {
  it('a 70 KB header gets 431 HEADERS_TOO_LARGE', async () => {
    const request = `GET /api/orders HTTP/1.1\r\nHost: gateway\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`;
    expectProblem(await rawHttp(gateway.url, request), 431, 'HEADERS_TOO_LARGE');
  });

  it('600 headers get 431 HEADERS_TOO_LARGE', async () => {
    const headers = Array.from({ length: 600 }, (_, i) => `X-H${String(i)}: ${'v'.repeat(40)}`);
    const request = `GET /api/orders HTTP/1.1\r\nHost: gateway\r\n${headers.join('\r\n')}\r\n\r\n`;
    expectProblem(await rawHttp(gateway.url, request), 431, 'HEADERS_TOO_LARGE');
  });

  it('a NUL byte in Idempotency-Key gets 400 BAD_REQUEST', async () => {
    const before = reachedServices();
    const request = post('/api/orders', 'Idempotency-Key: a\u0000b\r\nContent-Length: 0\r\n');
    expectProblem(await rawHttp(gateway.url, request), 400, 'BAD_REQUEST');
    expect(reachedServices()).toBe(before);
  });

  it('a 10 KB order id gets 414 URI_TOO_LONG with the request id it came with', async () => {
    const request = `GET /api/orders/${'a'.repeat(10_000)} HTTP/1.1\r\nHost: gateway\r\nX-Request-Id: long-1\r\n\r\n`;
    const response = await rawHttp(gateway.url, request);
    expectProblem(response, 414, 'URI_TOO_LONG');
    expect(response.headers['x-request-id']).toBe('long-1');
  });

  it('a fixed path segment over 100 characters matches no route: 404 NOT_FOUND, not 414', async () => {
    const request = `GET /api/${'a'.repeat(200)}/orders HTTP/1.1\r\nHost: gateway\r\nX-Request-Id: long-2\r\n\r\n`;
    const response = await rawHttp(gateway.url, request);
    expectProblem(response, 404, 'NOT_FOUND');
    expect(response.headers['x-request-id']).toBe('long-2');
  });

  it.each([
    '/api/orders/../cancel',
    '/api/../api/orders',
    '/api/orders/./x',
    '/api/orders/%2e%2E/cancel',
  ])('a path with a dot segment, %s, gets 400 BAD_REQUEST and is not forwarded', async (path) => {
    const before = reachedServices();
    const response = await rawHttp(
      gateway.url,
      post(path, 'Content-Type: application/json\r\nContent-Length: 2\r\n', '{}'),
    );
    expectProblem(response, 400, 'BAD_REQUEST');
    expect(reachedServices()).toBe(before);
  });
  it.each(['/api/orders/..%20', '/api/orders/...', '/api/inventory/..x', '/api/payments/a%2F..b'])(
    'a path parameter that decodes to a segment starting with "..", %s, gets 400 BAD_REQUEST and is not forwarded',
    async (path) => {
      const before = reachedServices();
      const response = await rawHttp(
        gateway.url,
        `GET ${path} HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n`,
      );
      expectProblem(response, 400, 'BAD_REQUEST');
      expect(reachedServices()).toBe(before);
    },
  );
});

describe('a service that answers before it has read the body', () => {
  /** Answers 413 to the first bytes of any request and drops the connection unread. */
  async function startImpatientService(): Promise<{ url: string; close(): Promise<void> }> {
    const server = net.createServer((socket) => {
      socket.once('data', () => {
        const body = '{"status":413,"code":"PAYLOAD_TOO_LARGE"}';
        socket.end(
          `HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/problem+json\r\nContent-Length: ${String(body.length)}\r\nConnection: close\r\n\r\n${body}`,
        );
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    return {
      url: `http://127.0.0.1:${String(port)}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("relays the service's answer with its status, never a 502", async () => {
    const impatient = await startImpatientService();
    const edge = await startGatewayUnderTest({ upstreams: { order: [impatient.url] } });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const response = await fetch(`${edge.url}/api/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'k-early' },
          body: 'z'.repeat(1_000_000),
        });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses).toEqual(Array.from({ length: 8 }, () => 413));
    } finally {
      await edge.close();
      await impatient.close();
    }
  });
});
