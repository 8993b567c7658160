// `node --import tsx bench/span-census.ts [--orders 20]` (e2e package): how
// many spans an order makes, by process and span name, and how many spans the
// stack sends that belong to no order's trace. Tracing's CPU is close to its
// number of spans times the SDK's price of one (docs/observability.md#what-tracing-costs),
// so this is the list to cut from. The stack exports to a local OTLP receiver.
import { parseArgs } from 'node:util';
import { startOtlpReceiver, type ReceivedSpan } from '@effectively-once/service-kit/testing';
import { apiClient, uniqueSku } from '../support/api-client.js';
import { startStack } from '../support/start-stack.js';

const { values: ARGS } = parseArgs({ options: { orders: { type: 'string', default: '20' } } });
const ORDERS = Number(ARGS.orders);
if (!Number.isInteger(ORDERS) || ORDERS <= 0)
  throw new Error(`--orders takes a whole number, not "${ARGS.orders}"`);

/** A statement's span by the first three words of its text (its kind and table); any other by its name. */
function spanLabel(span: ReceivedSpan): string {
  const statement = span.attributes['db.statement'] ?? span.attributes['db.query.text'];
  if (typeof statement !== 'string') return span.name;
  const words = statement.trim().replace(/\s+/g, ' ').split(' ').slice(0, 3).join(' ');
  return `pg: ${words.length > 48 ? words.slice(0, 48) : words}`;
}

async function main(): Promise<void> {
  const receiver = await startOtlpReceiver();
  const stack = await startStack({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      LOG_LEVEL: 'warn',
    },
  });
  try {
    const api = apiClient(stack.gatewayUrl);
    const sku = uniqueSku('census');
    await api.restock(sku, ORDERS);
    // Spans from start-up and the restock are not the orders': count from here.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = receiver.spans.length;
    const traceIds = new Set<string>();
    for (let index = 0; index < ORDERS; index++) {
      const placed = await api.placeOrder({
        items: [{ sku, quantity: 1 }],
        paymentToken: 'tok_approve',
      });
      if (placed.body.traceId === null)
        throw new Error('an order came back without a trace id: is tracing on?');
      traceIds.add(placed.body.traceId);
      await api.waitForStatus(placed.body.orderId);
    }
    // Emails and the last consumer spans end after the order is confirmed.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const spans = receiver.spans.slice(before);
    const ofOrders = spans.filter((span) => traceIds.has(span.traceId));
    const counts = new Map<string, number>();
    for (const span of ofOrders) {
      const key = `${span.service} | ${spanLabel(span)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const others = new Map<string, number>();
    for (const span of spans.filter((span) => !traceIds.has(span.traceId))) {
      const key = `${span.service} | ${spanLabel(span)}`;
      others.set(key, (others.get(key) ?? 0) + 1);
    }
    const rows = (map: Map<string, number>) =>
      [...map]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, count]) => `| ${key} | ${(count / ORDERS).toFixed(2)} |`)
        .join('\n');
    process.stdout.write(
      [
        `${String(ORDERS)} orders, ${String(spans.length)} spans received while they ran: ` +
          `${(ofOrders.length / ORDERS).toFixed(1)} per order in the orders' traces, ` +
          `${((spans.length - ofOrders.length) / ORDERS).toFixed(1)} per order in no order's trace.`,
        '',
        '| process | span | per order |',
        '| --- | --- | ---: |',
        rows(counts),
        '',
        'Spans of no order, per order placed:',
        '',
        '| process | span | per order |',
        '| --- | --- | ---: |',
        rows(others),
        '',
      ].join('\n'),
    );
  } finally {
    await stack.stop();
    await receiver.close();
  }
}

await main();
