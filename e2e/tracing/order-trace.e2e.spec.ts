// One order, one trace (docs/observability.md#traces): a stack started with
// the standard OTEL_* variables pointing at a local OTLP/HTTP receiver sends
// every process's spans there, and an order's spans, from the gateway's
// POST /api/orders to the mail sink receiving the email, share one trace id,
// every delivery attempt hanging under the producer span of its event.
import { readFileSync } from 'node:fs';
import {
  SPAN_KIND,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '@effectively-once/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../support/api-client.js';
import { startStack, type RunningStack } from '../support/start-stack.js';

let receiver: OtlpReceiver;
let stack: RunningStack;
let api: ApiClient;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await startStack({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Exported every 200 ms instead of every 5 s: the test waits less.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
  api = apiClient(stack.gatewayUrl);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const SERVICES = [
  'gateway',
  'order',
  'inventory',
  'payment',
  'payment-provider',
  'notification',
  'mail-sink',
];
const CONSUMING_SERVICES = ['order', 'inventory', 'payment', 'notification'];

const spansOf = (traceId: string): ReceivedSpan[] =>
  receiver.spans.filter((span) => span.traceId === traceId);

/** The stack log's JSON lines about deliveries of one order (each line is `<process> <json>`). */
function deliveryLines(logFile: string, orderId: string): Record<string, unknown>[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .map((line) => line.slice(line.indexOf('{')))
    .filter((json) => json.includes('"delivery acknowledged"') && json.includes(orderId))
    .map((json) => JSON.parse(json) as Record<string, unknown>);
}

describe('an order’s trace', () => {
  it('is one trace from POST /api/orders to the email, every consumer span under its event’s producer span', async () => {
    const sku = uniqueSku('traced');
    await api.restock(sku, 5);

    // When an order is placed and goes all the way to its email
    const placed = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_approve',
    });
    expect(placed.status).toBe(201);
    const traceId = placed.body.traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const order = await api.waitForStatus(placed.body.orderId);
    expect(order.status).toBe('confirmed');
    expect(order.traceId).toBe(traceId);

    // Then every process of the saga sent spans of that one trace, the email's receipt last of all
    const trace = await vi.waitFor(
      () => {
        const spans = spansOf(traceId ?? '');
        const services = new Set(spans.map((span) => span.service));
        const missing = SERVICES.filter((service) => !services.has(service));
        if (missing.length > 0 || !spans.some((span) => span.name === 'smtp receive')) {
          throw new Error(`no spans yet from ${missing.join(', ') || 'the mail sink’s receipt'}`);
        }
        // A delivery's consumer span ends after its ack, so it is exported after the
        // effects it caused (the mail sink's receipt among them): wait for it by name.
        const consuming = new Set(
          spans.filter((span) => span.kind === SPAN_KIND.consumer).map((span) => span.service),
        );
        const notConsumedYet = CONSUMING_SERVICES.filter((service) => !consuming.has(service));
        if (notConsumedYet.length > 0) {
          throw new Error(`no consumer span yet from ${notConsumedYet.join(', ')}`);
        }
        // Each acknowledged delivery's log line names its attempt's span: wait until all of
        // them have arrived (a timeout here means a line names a span that was never sent).
        const received = new Set(spans.map((span) => span.spanId));
        const unsent = deliveryLines(stack.logFile, order.orderId).filter(
          (line) => !received.has(String(line['span_id'])),
        );
        if (unsent.length > 0) {
          throw new Error(`${String(unsent.length)} acknowledged deliveries have no span yet`);
        }
        return spans;
      },
      { timeout: 30_000, interval: 200 },
    );

    // The gateway's server span for the POST is the root; its forwarding a client span under it
    const root = trace.find((span) => span.parentSpanId === undefined);
    expect(root).toMatchObject({ service: 'gateway', kind: SPAN_KIND.server });
    expect(trace.some((span) => span.service === 'gateway' && span.kind === SPAN_KIND.client)).toBe(
      true,
    );

    // Every delivery attempt is the child of the producer span of the very event it consumed
    const consumers = trace.filter((span) => span.kind === SPAN_KIND.consumer);
    const producers = new Map(
      trace.filter((span) => span.kind === SPAN_KIND.producer).map((span) => [span.spanId, span]),
    );
    expect(consumers.length).toBeGreaterThanOrEqual(6);
    for (const consumer of consumers) {
      const producer = producers.get(consumer.parentSpanId ?? '');
      expect(producer?.attributes['messaging.message.id']).toBe(
        consumer.attributes['messaging.message.id'],
      );
      expect(consumer.attributes).toMatchObject({
        'messaging.consumer.group.name': expect.any(String) as unknown,
        'eo.delivery.retry_count': 0,
        'eo.delivery.settlement': 'ack',
      });
      expect(['applied', 'duplicate', 'ignored']).toContain(
        consumer.attributes['eo.delivery.outcome'],
      );
      // The claim, as an event of the attempt that made it
      if (consumer.attributes['eo.delivery.outcome'] === 'applied') {
        expect(consumer.events.map((event) => event.name)).toContain('message claimed');
      }
    }
    expect(consumers.map((span) => span.service)).toEqual(
      expect.arrayContaining(CONSUMING_SERVICES),
    );

    // pg spans under the attempts, the card processor's call with its idempotency key
    const consumerIds = new Set(consumers.map((span) => span.spanId));
    expect(
      trace.some(
        (span) =>
          span.attributes['db.system.name'] === 'postgresql' &&
          consumerIds.has(span.parentSpanId ?? ''),
      ),
    ).toBe(true);
    // Logs joined to traces: each delivery's log line names the trace and its attempt's span
    const lines = deliveryLines(stack.logFile, order.orderId);
    expect(lines.length).toBeGreaterThanOrEqual(consumers.length);
    for (const line of lines) {
      expect(line['trace_id']).toBe(traceId);
      expect(consumerIds.has(String(line['span_id']))).toBe(true);
    }
    expect(
      trace.find(
        (span) =>
          span.service === 'payment' &&
          span.kind === SPAN_KIND.client &&
          span.attributes['http.request.header.idempotency-key'] !== undefined,
      ),
    ).toBeDefined();
  });
});
