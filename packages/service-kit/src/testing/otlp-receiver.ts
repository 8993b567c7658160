// A collector small enough for a test: it accepts OTLP/HTTP JSON exports at
// POST /v1/traces, as the OpenTelemetry Collector does, and keeps every span
// flattened, so a test asserts on what the processes really sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const AnyValue = z.object({
  stringValue: z.string().optional(),
  intValue: z.union([z.string(), z.number()]).optional(),
  doubleValue: z.number().optional(),
  boolValue: z.boolean().optional(),
});
const KeyValues = z.array(z.object({ key: z.string(), value: AnyValue })).default([]);

const ExportTraceServiceRequest = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: KeyValues }).default({ attributes: [] }),
      scopeSpans: z.array(
        z.object({
          spans: z.array(
            z.object({
              traceId: z.string(),
              spanId: z.string(),
              parentSpanId: z.string().optional(),
              name: z.string(),
              kind: z.number(),
              attributes: KeyValues,
              events: z.array(z.object({ name: z.string(), attributes: KeyValues })).default([]),
              links: z.array(z.object({ traceId: z.string(), spanId: z.string() })).default([]),
              status: z.object({ code: z.number().optional() }).optional(),
            }),
          ),
        }),
      ),
    }),
  ),
});

/** OTLP's SpanKind numbers. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Absent for a root span. */
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly events: readonly {
    name: string;
    attributes: Readonly<Record<string, AttributeValue>>;
  }[];
  readonly links: readonly { traceId: string; spanId: string }[];
  /** The resource's service.name and service.instance.id. */
  readonly service: string;
  readonly instance: string | undefined;
}

function flatten(values: z.output<typeof KeyValues>): Record<string, AttributeValue> {
  return Object.fromEntries(
    values.map(({ key, value }) => [
      key,
      value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue),
    ]),
  );
}

function spansOf(request: z.output<typeof ExportTraceServiceRequest>): ReceivedSpan[] {
  return request.resourceSpans.flatMap((resourceSpans) => {
    const resource = flatten(resourceSpans.resource.attributes);
    return resourceSpans.scopeSpans.flatMap((scope) =>
      scope.spans.map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        name: span.name,
        kind: span.kind,
        attributes: flatten(span.attributes),
        events: span.events.map((event) => ({
          name: event.name,
          attributes: flatten(event.attributes),
        })),
        links: span.links,
        service: String(resource['service.name']),
        instance:
          resource['service.instance.id'] === undefined
            ? undefined
            : String(resource['service.instance.id']),
      })),
    );
  });
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: what OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  readonly endpoint: string;
  /** Every span received so far, in arrival order. */
  readonly spans: readonly ReceivedSpan[];
  close(): Promise<void>;
}

/**
 * Listens on a free port of 127.0.0.1 and answers every JSON export 200;
 * anything it cannot parse 400, as a collector would.
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * spawn('node', [...], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } });
 * await vi.waitFor(() => expect(receiver.spans.some((span) => span.name === 'GET /ledger')).toBe(true));
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const parsed =
        request.method === 'POST' && request.url === '/v1/traces'
          ? ExportTraceServiceRequest.safeParse(
              JSON.parse(Buffer.concat(chunks).toString() || '{}'),
            )
          : undefined;
      if (parsed?.success !== true) {
        response.writeHead(400).end();
        return;
      }
      spans.push(...spansOf(parsed.data));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${String(port)}`,
    spans,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
