// The OTLP receiver and the trace route on a console listening on a real port,
// with a real event store: spans POSTed as an exporter sends them (JSON,
// gzipped, or protobuf it refuses), and an order whose events carry a
// traceparent read back as a waterfall.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { orderStream } from '@effectively-once/contracts';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { OrderTrace, type TracingExport } from '../api/console.api.js';
import { createConsoleServer } from '../app.js';
import { registerOtlpReceiver } from './otlp-receiver.routes.js';
import { createSpanStore } from './span-store.js';
import { exportRequest, span, spanId } from './testing/otlp.fixtures.js';
import { registerTraceRoutes } from './trace.routes.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const store = createPostgresEventStore({ url, pollIntervalMs: 100 });

async function startConsole(tracing: TracingExport) {
  const app = createConsoleServer({ logLevel: 'silent', logger: false });
  const spans = createSpanStore();
  registerOtlpReceiver(app, { spans });
  registerTraceRoutes(app, { store, spans, tracing });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, address };
}
const toConsole = await startConsole({ to: 'console', endpoint: null });
const elsewhere = await startConsole({
  to: 'elsewhere',
  endpoint: 'http://127.0.0.1:4318/v1/traces',
});
afterAll(async () => {
  await toConsole.app.close();
  await elsewhere.app.close();
  await store.close();
});
const base = toConsole.address;

/** A trace id of this test's own, so tests share the console without sharing spans. */
const newTraceId = () => randomUUID().replaceAll('-', '');

function exportSpans(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
}

/** fetch never sends a Host of the caller's choosing: a rebound name needs node:http. */
function postWithHost(host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}/v1/traces`,
      { method: 'POST', headers: { host, 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.once('error', reject);
    request.end('{}');
  });
}

/** An order placed by a request whose trace context its event carries, or by one without. */
async function placeOrder(traceId: string | null): Promise<string> {
  const orderId = randomUUID();
  await store.appendToStream(
    orderStream(orderId),
    [
      {
        id: randomUUID(),
        type: 'OrderPlaced',
        data: { orderId },
        metadata: {
          correlationId: orderId,
          ...(traceId === null ? {} : { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }),
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  return orderId;
}

async function traceOf(address: string, orderId: string): Promise<OrderTrace> {
  const response = await fetch(`${address}/api/console/orders/${orderId}/trace`);
  expect(response.status).toBe(200);
  return OrderTrace.parse(await response.json());
}

/** The gateway's request, the order service's append, and the inventory consumer's attempt. */
function sagaSpans(traceId: string) {
  return [
    span('1', { name: 'POST /api/orders', kind: 'server', service: 'gateway', endMs: 30 }),
    span('2', {
      name: 'append OrderPlaced',
      kind: 'producer',
      parentSpanId: spanId('1'),
      startMs: 10,
      endMs: 20,
    }),
    span('3', {
      name: 'process OrderPlaced',
      kind: 'consumer',
      parentSpanId: spanId('2'),
      startMs: 40,
      endMs: 70,
      service: 'inventory',
      attributes: { 'messaging.consumer.group.name': 'inventory-reservation-v1' },
    }),
  ].map((kept) => ({ ...kept, traceId }));
}

describe('POST /v1/traces', () => {
  it('takes an exporter’s JSON: 200 with an empty ExportTraceServiceResponse, and the order’s trace shows the spans', async () => {
    // Given an order whose events carry trace T
    const traceId = newTraceId();
    const orderId = await placeOrder(traceId);

    // When the spans of T are exported, out of order and in two batches
    const spans = sagaSpans(traceId);
    const first = await exportSpans(exportRequest([spans[2], spans[0]].flatMap((s) => s ?? [])));
    const second = await exportSpans(exportRequest([spans[1]].flatMap((s) => s ?? [])));

    // Then both are accepted without partialSuccess (the specification leaves it unset)
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({});
    }
    // And the order's trace is the waterfall of its three spans
    const trace = await traceOf(base, orderId);
    expect(trace).toMatchObject({ orderId, traceId, emptyReason: null });
    expect(trace.rows.map((row) => [row.depth, row.name, row.service])).toEqual([
      [0, 'POST /api/orders', 'gateway'],
      [1, 'append OrderPlaced', 'order'],
      [2, 'process OrderPlaced', 'inventory'],
    ]);
    expect(trace.rows[2]?.delivery?.consumerGroup).toBe('inventory-reservation-v1');
    expect(trace.services).toEqual(['gateway', 'order', 'inventory']);
  });

  it('answers a partial success naming the refused span when one span of a batch is invalid', async () => {
    const traceId = newTraceId();
    const body = exportRequest(sagaSpans(traceId)) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    const bad = body.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    if (bad === undefined) throw new Error('fixture changed');
    bad['spanId'] = 'not-hex';

    const response = await exportSpans(body);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      partialSuccess: {
        rejectedSpans: '1',
        errorMessage: expect.stringMatching(
          /^invalid span: spanId must be 8 bytes in hex/,
        ) as unknown,
      },
    });
  });

  it('refuses what is not an ExportTraceServiceRequest with 400 and a google.rpc.Status, never a crash', async () => {
    const wrongShape = await exportSpans({ resourceSpans: [{ scopeSpans: 'nope' }] });
    const notJson = await exportSpans('{"resourceSpans": [');
    const empty = await exportSpans('');

    expect(wrongShape.status).toBe(400);
    expect(await wrongShape.json()).toMatchObject({
      message: expect.stringMatching(
        /^Not an ExportTraceServiceRequest: resourceSpans\.0\.scopeSpans/,
      ) as unknown,
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [expect.objectContaining({ field: 'resourceSpans.0.scopeSpans' })],
        },
      ],
    });
    for (const response of [notJson, empty]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: expect.any(String) as unknown });
    }
    // And the console still answers
    expect((await exportSpans({})).status).toBe(200);
  });

  it('refuses protobuf with 415 and says to send JSON', async () => {
    const response = await exportSpans(new Uint8Array([0x0a, 0x00]), {
      'content-type': 'application/x-protobuf',
    });

    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      message: expect.stringMatching(
        /as JSON only .*OTEL_EXPORTER_OTLP_PROTOCOL=http\/json/,
      ) as unknown,
    });
  });

  it('takes a gzipped body (Content-Encoding: gzip)', async () => {
    const traceId = newTraceId();
    const orderId = await placeOrder(traceId);

    const response = await exportSpans(
      gzipSync(JSON.stringify(exportRequest(sagaSpans(traceId)))),
      { 'content-encoding': 'gzip' },
    );

    expect(response.status).toBe(200);
    expect((await traceOf(base, orderId)).rows).toHaveLength(3);
    expect((await exportSpans('not gzip', { 'content-encoding': 'gzip' })).status).toBe(400);
  });

  it('refuses a browser page (a request with Origin), even with JSON, and a host the console does not know', async () => {
    const fromPage = await exportSpans({}, { origin: base });
    const rebound = await postWithHost('evil.example:3000');

    expect(fromPage.status).toBe(403);
    expect(await fromPage.json()).toEqual({
      message: expect.stringMatching(/not from web pages/) as unknown,
    });
    expect(rebound).toBe(421);
  });
});

describe('GET /api/console/orders/:orderId/trace', () => {
  it('says why an order has no spans: no traceparent in its events, spans sent elsewhere, or none arrived yet', async () => {
    const untraced = await traceOf(base, await placeOrder(null));
    const traceId = newTraceId();
    const traced = await placeOrder(traceId);

    expect(untraced).toMatchObject({ traceId: null, rows: [] });
    expect(untraced.emptyReason).toMatch(/carries a traceparent/);
    expect((await traceOf(base, traced)).emptyReason).toMatch(
      /^No spans of this trace have arrived yet/,
    );
    expect(await traceOf(elsewhere.address, traced)).toMatchObject({
      traceId,
      rows: [],
      tracing: { to: 'elsewhere', endpoint: 'http://127.0.0.1:4318/v1/traces' },
      emptyReason: expect.stringMatching(
        /exports its spans to http:\/\/127\.0\.0\.1:4318\/v1\/traces/,
      ) as unknown,
    });
  });

  it('answers 404 ORDER_NOT_FOUND for an order the store does not hold', async () => {
    const response = await fetch(`${base}/api/console/orders/${randomUUID()}/trace`);

    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });
});
