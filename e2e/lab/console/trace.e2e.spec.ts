// An order's trace in the console, on the shared stack: the order is placed
// through the gateway with a W3C traceparent of the test's own, so its events
// carry a trace id the test knows; the spans of that trace reach the console's
// OTLP receiver (POST /v1/traces) and the trace view draws them as a waterfall.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { StackState } from '@effectively-once/stack-protocol';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OrderTrace } from '../../../apps/lab/console/src/api/console.api.js';
import {
  exportRequest,
  span,
  spanId,
} from '../../../apps/lab/console/src/traces/testing/otlp.fixtures.js';
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

let gatewayUrl: string;
let consoleUrl: string;
let api: ApiClient;
let session: BrowserSession;

beforeAll(async () => {
  gatewayUrl = inject('gatewayUrl');
  const state = StackState.parse(JSON.parse(await readFile(inject('stackStateFile'), 'utf8')));
  if (state.ports.console === undefined) throw new Error('The shared stack runs no console.');
  consoleUrl = `http://127.0.0.1:${String(state.ports.console)}`;
  api = apiClient(gatewayUrl);
  session = await openBrowser();
});

afterAll(async () => {
  await session.close();
});

/** Places a confirmed order under trace `traceId`, as a caller that traces its own request would. */
async function placeTracedOrder(traceId: string, callerSpanId: string): Promise<string> {
  const sku = uniqueSku('trace');
  await api.restock(sku, 3);
  const response = await fetch(`${gatewayUrl}/api/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': randomBytes(16).toString('hex'),
      traceparent: `00-${traceId}-${callerSpanId}-01`,
    },
    body: JSON.stringify({
      customerEmail: 'ada@example.com',
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_approve',
    }),
  });
  expect(response.status).toBe(201);
  const { orderId } = (await response.json()) as { orderId: string };
  await api.waitForStatus(orderId);
  return orderId;
}

/**
 * The order's spans as the stack's processes would export them: the caller,
 * the gateway, the order service's append, and the payment consumer's
 * attempts of one message: one whose process was killed mid-delivery (its
 * span never exported, its claim statement was), one that failed, and the
 * retry that applied it.
 */
function orderSpans(traceId: string) {
  const consumer = (id: string, startMs: number, retryCount: number, outcome: string) =>
    span(id, {
      name: 'process OrderPaymentRequested',
      kind: 'consumer',
      parentSpanId: spanId('3'),
      startMs,
      endMs: startMs + 25,
      service: 'payment',
      attributes: {
        'messaging.consumer.group.name': 'payment-authorization-v1',
        'eo.delivery.retry_count': retryCount,
        'eo.delivery.outcome': outcome,
      },
    });
  return [
    span('1', { name: 'place order (e2e)', kind: 'client', service: 'e2e-client', endMs: 60 }),
    span('2', {
      name: 'POST /api/orders',
      kind: 'server',
      parentSpanId: spanId('1'),
      service: 'gateway',
      startMs: 2,
      endMs: 58,
    }),
    span('3', {
      name: 'append order',
      kind: 'producer',
      parentSpanId: spanId('2'),
      startMs: 20,
      endMs: 30,
    }),
    span('a', {
      name: 'INSERT processed_message',
      kind: 'client',
      parentSpanId: spanId('dead'),
      service: 'payment',
      startMs: 45,
      endMs: 48,
    }),
    consumer('4', 80, 1, 'retryable_failure'),
    consumer('5', 300, 2, 'applied'),
  ].map((kept) => ({ ...kept, traceId }));
}

describe('the trace of an order', () => {
  it('shows the waterfall: rows for several services, a consumer attempt with its outcome, and the trace id', async (context) => {
    // Given a confirmed order placed under trace T
    const traceId = randomBytes(16).toString('hex');
    const orderId = await placeTracedOrder(traceId, spanId('1'));

    // When the spans of T reach the console's OTLP receiver
    const exported = await fetch(`${consoleUrl}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(exportRequest(orderSpans(traceId))),
    });
    expect(exported.status).toBe(200);

    // Then the API gives the order's trace id and its spans
    const trace = OrderTrace.parse(
      await (await fetch(`${gatewayUrl}/api/console/orders/${orderId}/trace`)).json(),
    );
    expect(trace.traceId).toBe(traceId);

    // And the trace view shows the waterfall across the services, with the attempts' outcomes
    const { page, finish } = await pageForTest(session, context, FILE);
    await openView(page, gatewayUrl, `#/orders/${orderId}/trace`, `Trace of ${shortId(orderId)}`);
    await viewStatus(page)
      .filter({ hasText: /spans across \d+ services/ })
      .waitFor();
    await page.getByText(traceId, { exact: true }).waitFor();
    const spans = table(page, `Spans of trace ${traceId}`);
    for (const service of ['gateway', 'order', 'payment']) {
      await rowsWith(spans, service).first().waitFor();
    }
    await rowsWith(
      spans,
      'process OrderPaymentRequested',
      'retry 1',
      'retryable_failure',
    ).waitFor();
    await rowsWith(spans, 'process OrderPaymentRequested', 'retry 2', 'applied').waitFor();
    // And the attempt killed mid-delivery is a row that never ended, its statement under it
    await rowsWith(spans, 'span that never arrived', 'never ended').waitFor();
    await rowsWith(spans, 'INSERT processed_message', 'payment').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await finish({ docsName: 'order-trace' });
  });

  it('prints the trace id with pnpm lineage, and where to see the trace', async () => {
    const traceId = randomBytes(16).toString('hex');
    const orderId = await placeTracedOrder(traceId, spanId('1'));

    const { stdout } = await promisify(execFile)('pnpm', ['--silent', 'lineage', orderId], {
      cwd: REPO_ROOT,
      env: { ...process.env, STACK_STATE_FILE: inject('stackStateFile') },
    });

    // Then its last lines are the trace id and, for where this stack's spans go, where to see it
    const { tracing } = OrderTrace.parse(
      await (await fetch(`${gatewayUrl}/api/console/orders/${orderId}/trace`)).json(),
    );
    const hint = {
      console: new RegExp(
        `^See it: ${gatewayUrl}/#/orders/${orderId}/trace \\(\\d+ spans so far\\)$`,
        'm',
      ),
      elsewhere: /^See it where the stack exports spans, /m,
      off: /^Tracing is off in this stack/m,
    }[tracing.to];
    expect(stdout).toContain(`\nTrace: ${traceId}\n`);
    expect(stdout).toMatch(hint);
  });
});
