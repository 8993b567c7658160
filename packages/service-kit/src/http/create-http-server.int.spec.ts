// The server every service starts from, exercised through inject: zod-typed
// routes, and every error as a problem document.
import net from 'node:net';
import { ProblemDetails } from '@effectively-once/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createHttpServer } from './create-http-server.js';
import { ProblemError } from './problem.js';
import { rawHttp, type RawResponse } from '../testing/raw-http.js';

const PlaceOrder = z.object({
  customerEmail: z.email(),
  items: z
    .array(z.object({ sku: z.string().min(1), quantity: z.number().int().positive() }))
    .min(1),
});

function buildTestApp() {
  const app = createHttpServer({ service: 'test', logger: false });
  app.post(
    '/orders',
    { schema: { body: PlaceOrder, response: { 201: z.object({ lines: z.number() }) } } },
    // The body is typed by the schema: no cast.
    (request, reply) => {
      void reply.code(201);
      return { lines: request.body.items.length };
    },
  );
  app.get(
    '/orders/:orderId',
    { schema: { params: z.object({ orderId: z.uuid() }) } },
    (request) => {
      throw new ProblemError({
        status: 404,
        code: 'ORDER_NOT_FOUND',
        title: 'No such order',
        detail: `No order ${request.params.orderId}.`,
      });
    },
  );
  app.get('/boom', () => {
    throw new Error('password authentication failed for user "order"');
  });
  app.get(
    '/wrong-shape',
    { schema: { response: { 200: z.object({ id: z.string() }) } } },
    () =>
      // A handler bug: the response does not match its schema.
      ({ id: 42 }) as unknown as { id: string },
  );
  return app;
}

const app = buildTestApp();
afterAll(() => app.close());

function problemOf(response: { headers: Record<string, unknown>; body: string }): ProblemDetails {
  expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  return ProblemDetails.parse(JSON.parse(response.body));
}

describe('createHttpServer', () => {
  it('hands a valid body to the route, typed by its schema', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      payload: { customerEmail: 'ada@example.com', items: [{ sku: 'MUG', quantity: 2 }] },
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ lines: 1 });
  });

  it('answers a body that fails its schema with 400 VALIDATION_FAILED and one entry per issue', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders?source=test',
      payload: { customerEmail: 'not-an-email', items: [{ sku: 'MUG', quantity: 0 }] },
    });

    expect(response.statusCode).toBe(400);
    const problem = problemOf(response);
    expect(problem).toMatchObject({
      type: 'urn:effectively-once:problem:validation-failed',
      status: 400,
      code: 'VALIDATION_FAILED',
      title: 'The request is not valid',
      instance: '/orders',
    });
    expect(problem.errors?.map((error) => error.path)).toEqual([
      'body.customerEmail',
      'body.items.0.quantity',
    ]);
    expect(problem.errors?.[0]?.message).toMatch(/email/i);
    expect(problem.errors?.[1]?.message).toMatch(/>0/);
  });

  it('answers invalid path parameters the same way', async () => {
    const response = await app.inject({ method: 'GET', url: '/orders/42' });

    expect(response.statusCode).toBe(400);
    const { errors } = problemOf(response);
    expect(errors?.map((error) => error.path)).toEqual(['params.orderId']);
    expect(errors?.[0]?.message).toMatch(/uuid/i);
  });

  it('answers a ProblemError with its status, code and detail', async () => {
    const orderId = 'b1f4c1de-0c1e-4d9b-9a43-0f8e7c2e7a10';
    const response = await app.inject({ method: 'GET', url: `/orders/${orderId}` });

    expect(response.statusCode).toBe(404);
    expect(problemOf(response)).toEqual({
      type: 'urn:effectively-once:problem:order-not-found',
      title: 'No such order',
      status: 404,
      code: 'ORDER_NOT_FOUND',
      detail: `No order ${orderId}.`,
      instance: `/orders/${orderId}`,
    });
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/nowhere?x=1' });

    expect(response.statusCode).toBe(404);
    expect(problemOf(response)).toMatchObject({
      code: 'NOT_FOUND',
      detail: 'No route answers DELETE /nowhere.',
      instance: '/nowhere',
    });
  });

  it('answers an unexpected error with 500 INTERNAL_ERROR, keeping its message out of the response', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });

    expect(response.statusCode).toBe(500);
    expect(problemOf(response)).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
    expect(response.body).not.toContain('password');
  });

  it('answers a response that breaks its own schema with 500 INTERNAL_ERROR', async () => {
    const response = await app.inject({ method: 'GET', url: '/wrong-shape' });

    expect(response.statusCode).toBe(500);
    expect(problemOf(response).code).toBe('INTERNAL_ERROR');
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'application/json' },
      payload: '{"customerEmail": ',
    });

    expect(response.statusCode).toBe(400);
    expect(problemOf(response).code).toBe('MALFORMED_JSON');
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ customerEmail: 'x'.repeat(1_100_000) }),
    });

    expect(response.statusCode).toBe(413);
    expect(problemOf(response).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unsupported content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'application/xml' },
      payload: '<order/>',
    });

    expect(response.statusCode).toBe(415);
    expect(problemOf(response).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it("returns the caller's x-request-id, or a new one, on every response", async () => {
    const given = await app.inject({
      method: 'GET',
      url: '/boom',
      headers: { 'x-request-id': 'req-7' },
    });
    const generated = await app.inject({ method: 'GET', url: '/nowhere' });

    expect(given.headers['x-request-id']).toBe('req-7');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('createHttpServer, what the body parser accepts', () => {
  it('answers a text/plain body with 415 UNSUPPORTED_MEDIA_TYPE, not a validation failure', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'text/plain' },
      payload: '{"customerEmail":"ada@example.com","items":[{"sku":"MUG","quantity":1}]}',
    });

    expect(response.statusCode).toBe(415);
    expect(problemOf(response).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses valid JSON with a "__proto__" key as 400 VALIDATION_FAILED naming the key', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'application/json' },
      payload:
        '{"customerEmail":"ada@example.com","items":[{"sku":"MUG","quantity":1}],"__proto__":{"admin":true}}',
    });

    expect(response.statusCode).toBe(400);
    const problem = problemOf(response);
    expect(problem.code).toBe('VALIDATION_FAILED');
    expect(problem.errors).toEqual([{ path: 'body', message: 'must not have a "__proto__" key' }]);
  });

  // Plain JSON.parse is taken for text that cannot spell a forbidden key; a
  // \u escape can, so it must still reach the check.
  it('refuses a "__proto__" key spelled with \\u escapes just the same', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'application/json' },
      payload:
        '{"customerEmail":"ada@example.com","items":[{"sku":"MUG","quantity":1}],"\\u005f\\u005fproto__":{"admin":true}}',
    });

    expect(response.statusCode).toBe(400);
    expect(problemOf(response).errors).toEqual([
      { path: 'body', message: 'must not have a "__proto__" key' },
    ]);
  });

  it('still answers an empty JSON body with 400 MALFORMED_JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });

    expect(response.statusCode).toBe(400);
    expect(problemOf(response).code).toBe('MALFORMED_JSON');
  });
});

describe('createHttpServer, errors below the routes, over a real socket', () => {
  const listening = buildTestApp();
  let url = '';
  beforeAll(async () => {
    url = await listening.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => listening.close());

  function expectRawProblem(response: RawResponse, status: number, code: string): void {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(ProblemDetails.parse(JSON.parse(response.body))).toMatchObject({ status, code });
  }

  it('answers a 70 KB header with 431 HEADERS_TOO_LARGE', async () => {
    const request = `GET /orders HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`;
    expectRawProblem(await rawHttp(url, request), 431, 'HEADERS_TOO_LARGE');
  });

  it('answers 600 headers with 431 HEADERS_TOO_LARGE', async () => {
    const headers = Array.from(
      { length: 600 },
      (_, index) => `X-H${String(index)}: ${'v'.repeat(40)}`,
    ).join('\r\n');
    const request = `GET /orders HTTP/1.1\r\nHost: x\r\n${headers}\r\n\r\n`;
    expectRawProblem(await rawHttp(url, request), 431, 'HEADERS_TOO_LARGE');
  });

  it('answers a NUL byte in a header with 400 BAD_REQUEST', async () => {
    const request = `POST /orders HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\nContent-Length: 0\r\n\r\n`;
    expectRawProblem(await rawHttp(url, request), 400, 'BAD_REQUEST');
  });

  it('answers a 10 KB path parameter with 414 URI_TOO_LONG, with the request id it was sent', async () => {
    const request = `GET /orders/${'a'.repeat(10_000)} HTTP/1.1\r\nHost: x\r\nX-Request-Id: long-1\r\n\r\n`;
    const response = await rawHttp(url, request);
    expect(response.status).toBe(414);
    expect(response.headers['x-request-id']).toBe('long-1');
    expect(JSON.parse(response.body)).toMatchObject({ status: 414, code: 'URI_TOO_LONG' });
  });

  it('answers a body that stops arriving with 408 REQUEST_TIMEOUT after the request timeout', async () => {
    const impatient = createHttpServer({ service: 'test', logger: false, requestTimeoutMs: 300 });
    impatient.post('/orders', () => ({ ok: true }));
    const impatientUrl = await impatient.listen({ host: '127.0.0.1', port: 0 });
    try {
      const request = `POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"`;
      const response = await rawHttp(impatientUrl, request, { timeoutMs: 3_000 });
      expectRawProblem(response, 408, 'REQUEST_TIMEOUT');
      expect(response.ms).toBeGreaterThanOrEqual(250);
    } finally {
      await impatient.close();
    }
  });

  const BODY_PREFIX = '{"customerEmail":"';

  /**
   * Announces a body of `bodyBytes` and sends its first bytes only, then
   * waits for the answer, as an HTTP client still writing its body does.
   * The socket is half-open, so that the server's FIN does not end it.
   */
  async function startAnUploadAndReadTheAnswer(serverUrl: string, bodyBytes: number) {
    const { hostname, port } = new URL(serverUrl);
    const socket = net.connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    socket.on('error', () => {
      // Seen by the test through the failed write and 'close' (hadError).
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
    });
    const closed = new Promise<boolean>((resolve) => socket.once('close', resolve));
    socket.write(
      `POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${String(bodyBytes)}\r\n\r\n${BODY_PREFIX}`,
    );
    await vi.waitFor(() => expect(received).toMatch(/\r\n\r\n\{.*\}$/s), { timeout: 3_000 });
    return { socket, statusLine: received.split('\r\n')[0], closedWithError: closed };
  }

  it('answers 413 at once to a Content-Length over the limit and reads the rest of the upload before closing, so the client is not reset', async () => {
    const bodyBytes = 3 * 1024 * 1024;
    const upload = await startAnUploadAndReadTheAnswer(url, bodyBytes);
    expect(upload.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    // The server has answered and sent its FIN; closed at once, it would reset these bytes.
    const restAccepted = await new Promise<boolean>((resolve) => {
      upload.socket.write('x'.repeat(bodyBytes - BODY_PREFIX.length), (error) => {
        resolve(error === undefined || error === null);
      });
    });
    upload.socket.end();
    expect({ restAccepted, closedWithError: await upload.closedWithError }).toEqual({
      restAccepted: true,
      closedWithError: false,
    });
  });

  it('lets go of a connection whose upload stops after the 413 once the request timeout has passed', async () => {
    const impatient = createHttpServer({ service: 'test', logger: false, requestTimeoutMs: 300 });
    impatient.post('/orders', () => ({ ok: true }));
    const impatientUrl = await impatient.listen({ host: '127.0.0.1', port: 0 });
    const openConnections = () =>
      new Promise<number>((resolve, reject) => {
        impatient.server.getConnections((error, count) => {
          if (error) reject(error);
          else resolve(count);
        });
      });
    const upload = await startAnUploadAndReadTheAnswer(impatientUrl, 3 * 1024 * 1024);
    try {
      expect(upload.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
      expect(await openConnections()).toBe(1);
      await vi.waitFor(async () => expect(await openConnections()).toBe(0), { timeout: 5_000 });
    } finally {
      upload.socket.destroy();
      await impatient.close();
    }
  });

  it('ends a lingering connection at once when the server closes, so a shutdown does not wait for the upload', async () => {
    const server = createHttpServer({ service: 'test', logger: false });
    server.post('/orders', () => ({ ok: true }));
    const serverUrl = await server.listen({ host: '127.0.0.1', port: 0 });
    const upload = await startAnUploadAndReadTheAnswer(serverUrl, 3 * 1024 * 1024);
    try {
      expect(upload.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
      const closing = performance.now();
      await server.close();
      // Without it, close waits for the 30 s request timeout.
      expect(performance.now() - closing).toBeLessThan(5_000);
    } finally {
      upload.socket.destroy();
    }
  });

  it('answers a badly encoded URL with 400 BAD_REQUEST', async () => {
    const request = `GET /orders/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n`;
    expectRawProblem(await rawHttp(url, request), 400, 'BAD_REQUEST');
  });
});

// A client that breaks its own request stream (stops mid-body, or closes its
// side) is its doing, not a server failure: Fastify stamps the stream's error
// statusCode 400, but it keeps Node's code ECONNRESET, which once read as a
// lost database connection and was logged as `request failed`.
describe('createHttpServer, a request stream the client breaks', () => {
  interface LogLine {
    level: number;
    msg: string;
    err?: { code?: string };
  }
  const lines: LogLine[] = [];
  const server = createHttpServer({
    service: 'test',
    requestTimeoutMs: 300,
    logStream: { write: (line) => lines.push(JSON.parse(line) as LogLine) },
  });
  server.post('/orders', () => ({ ok: true }));
  let url = '';
  beforeAll(async () => {
    url = await server.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => server.close());

  async function streamErrorLogged(): Promise<LogLine> {
    return vi.waitFor(() => {
      const line = lines.find((entry) => entry.err?.code === 'ECONNRESET');
      if (line === undefined) throw new Error('the broken request stream was not logged yet');
      return line;
    });
  }

  it.each([
    ['stalls mid-body', { endAfterWrite: false }, 408, 'REQUEST_TIMEOUT'],
    ['half-closes mid-body', { endAfterWrite: true }, 400, 'BAD_REQUEST'],
  ])(
    'a client that %s gets its 4xx, and the log has no failure line',
    async (_, options, status, code) => {
      lines.length = 0;
      const request = `POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1`;
      const response = await rawHttp(url, request, { timeoutMs: 3_000, ...options });

      expect(response.status).toBe(status);
      expect(JSON.parse(response.body)).toMatchObject({ status, code });
      const logged = await streamErrorLogged();
      expect(logged.level).toBeLessThan(50);
      expect(logged.msg).not.toBe('request failed');
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    },
  );
});
