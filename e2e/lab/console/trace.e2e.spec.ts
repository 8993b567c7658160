// An order's trace in the console, on the shared stack: the supervisor points
// every process at the console's OTLP receiver (POST /v1/traces), so an order
// placed through the gateway leaves real spans there. The trace view draws
// them as a waterfall, and `pnpm lineage` prints the trace id.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CONSUMERS } from '@effectively-once/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OrderTrace, type TraceRow } from '../../../apps/lab/console/src/api/console.api.js';
import { apiClient, uniqueSku, type ApiClient } from '../../support/api-client.js';
import { openBrowser, pageForTest, type BrowserSession } from '../support/browser.js';
import {
  axeViolations,
  openView,
  rowsWith,
  shortId,
  table,
  viewStatus,
} from '../support/console-page.js';

const FILE = 'trace';
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Processes export in batches every few seconds; a generous bound on the last one arriving. */
const SPANS_WITHIN_MS = 30_000;

let gatewayUrl: string;
let api: ApiClient;
let session: BrowserSession;

beforeAll(async () => {
  gatewayUrl = inject('gatewayUrl');
  api = apiClient(gatewayUrl);
  session = await openBrowser();
});

afterAll(async () => {
  await session.close();
});

async function traceOf(orderId: string): Promise<OrderTrace> {
  const response = await fetch(`${gatewayUrl}/api/console/orders/${orderId}/trace`);
  if (!response.ok) throw new Error(`trace answered ${String(response.status)}`);
  return OrderTrace.parse(await response.json());
}

/** The consumer span of `group` receiving `eventType`, once it has its outcome. */
const attempt = (trace: OrderTrace, group: string, eventType: string): TraceRow | undefined =>
  trace.rows.find(
    (row) =>
      row.kind === 'consumer' &&
      row.name === `process ${eventType}` &&
      row.delivery?.consumerGroup === group &&
      row.delivery.outcome !== null,
  );

async function confirmedOrder(): Promise<string> {
  const sku = uniqueSku('trace');
  await api.restock(sku, 3);
  const { body } = await api.placeOrder({
    items: [{ sku, quantity: 1 }],
    paymentToken: 'tok_approve',
  });
  await api.waitForStatus(body.orderId);
  return body.orderId;
}

describe('the trace of an order', () => {
  let orderId: string;
  let trace: OrderTrace;
  beforeAll(async () => {
    orderId = await confirmedOrder();
    // Spans reach the console seconds after the saga's events: wait for the last consumer's.
    trace = await api.waitFor(
      () => traceOf(orderId),
      (read) =>
        attempt(read, CONSUMERS.notificationEmail, 'OrderConfirmed') !== undefined &&
        attempt(read, CONSUMERS.paymentAuthorization, 'OrderPaymentRequested') !== undefined,
      'the consumers’ spans of the order in the console',
      SPANS_WITHIN_MS,
    );
  });

  it('is one trace across the services, from the gateway’s request to the last consumer, each attempt with its outcome', async () => {
    // The trace id, from the order's events, is the one the order resource names
    expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(trace.traceId).toBe((await api.order(orderId)).body.traceId);
    // And the console is where spans go
    expect(trace.tracing).toEqual({ to: 'console', endpoint: null });
    expect(trace.emptyReason).toBeNull();
    // Spans of the gateway, the four saga services and the card processor (which services
    // make spans is otel-core's to say; the view shows whichever arrive)
    expect(trace.services).toEqual(
      expect.arrayContaining([
        'gateway',
        'order',
        'inventory',
        'payment',
        'payment-provider',
        'notification',
      ]),
    );
    // The first row is the gateway's server span: the order's trace starts at the request
    expect(trace.rows[0]).toMatchObject({ service: 'gateway', kind: 'server', depth: 0 });
    // And every attempt of the happy path applied, under the span of the event it consumed
    const payment = attempt(trace, CONSUMERS.paymentAuthorization, 'OrderPaymentRequested');
    expect(payment?.delivery).toMatchObject({ outcome: 'applied', retryCount: 0 });
    const producer = trace.rows.find((row) => row.spanId === payment?.parentSpanId);
    expect(producer).toMatchObject({ kind: 'producer', service: 'order' });
  });

  it('shows the waterfall in the console: rows for several services, a consumer attempt with its outcome, the trace id', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    await openView(page, gatewayUrl, `#/orders/${orderId}/trace`, `Trace of ${shortId(orderId)}`);

    await viewStatus(page)
      .filter({ hasText: /spans across \d+ services/ })
      .waitFor();
    await page.getByText(trace.traceId ?? '', { exact: true }).waitFor();
    const spans = table(page, `Spans of trace ${trace.traceId ?? ''}`);
    for (const service of ['gateway', 'order', 'inventory', 'payment', 'notification']) {
      await rowsWith(spans, service).first().waitFor();
    }
    await rowsWith(
      spans,
      'process OrderPaymentRequested',
      `${CONSUMERS.paymentAuthorization} · retry 0`,
      'applied',
    ).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await finish({ docsName: 'order-trace' });
  });

  it('prints the trace id with pnpm lineage, and where to see the trace', async () => {
    const { stdout } = await promisify(execFile)('pnpm', ['--silent', 'lineage', orderId], {
      cwd: REPO_ROOT,
      env: { ...process.env, STACK_STATE_FILE: inject('stackStateFile') },
    });

    expect(stdout).toContain(`\nTrace: ${trace.traceId ?? ''}\n`);
    expect(stdout).toMatch(
      new RegExp(`^See it: ${gatewayUrl}/#/orders/${orderId}/trace \\(\\d+ spans so far\\)$`, 'm'),
    );
  });
});
