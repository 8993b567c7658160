// `pnpm bench` (e2e package), flow control: does one failing order hold up
// the others, and what does an idle stack cost the database? On the stack as
// `pnpm start` runs it.
//
// 1. Isolation: healthy orders at a steady pace, first alone, then while five
//    orders whose card processor keeps failing (`tok_error`) retry. The ratio
//    of their latencies is the figure; 1 means no head-of-line blocking.
// 2. Idle: transactions per second on the event store's database with no
//    order in flight, then with a transaction held open on another connection
//    (which holds back every reader below the snapshot's xmin).
import { randomUUID } from 'node:crypto';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { OrderResource } from '@effectively-once/contracts';
import { type EventStore } from '@effectively-once/event-store';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import pg from 'pg';
import { writeBenchmarkSection } from '../../tooling/benchmarks-doc.js';
import { startStack } from '../support/start-stack.js';
import { summarize, type LatencySummary } from './latency.js';
import { followOrderEnds, type OrderEnds } from './order-ends.js';

const BENCHMARKS_FILE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
const PLAN = {
  healthy: { perSecond: 4, seconds: 10 },
  failing: 5,
  idleSeconds: 10,
  sku: 'SKU-FLOW-BENCH',
  /** An order that is not confirmed by then counts as stalled. */
  stalledAfterMs: 180_000,
} as const;
const TARGET_RATIO = 2;

async function placeOrder(baseUrl: string, paymentToken: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      customerEmail: 'bench@example.com',
      items: [{ sku: PLAN.sku, quantity: 1 }],
      paymentToken,
    }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /api/orders: ${String(response.status)} ${text}`);
  return OrderResource.parse(JSON.parse(text)).orderId;
}

async function waitForEnd(ends: OrderEnds, orderId: string): Promise<number | undefined> {
  if (!ends.ended.has(orderId)) {
    await new Promise<void>((resolve) => {
      ends.waiters.set(orderId, resolve);
      setTimeout(resolve, PLAN.stalledAfterMs);
    });
    ends.waiters.delete(orderId);
  }
  return ends.ended.get(orderId);
}

/** Healthy orders on a fixed schedule; the latency of each, POST to OrderConfirmed. */
async function healthyLatencies(baseUrl: string, ends: OrderEnds): Promise<LatencySummary> {
  const { perSecond, seconds } = PLAN.healthy;
  const startedAt = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: perSecond * seconds }, async (_, index) => {
      await sleep(Math.max(0, startedAt + (index * 1000) / perSecond - performance.now()));
      const sentAt = performance.now();
      const endedAt = await waitForEnd(ends, await placeOrder(baseUrl, 'tok_approve'));
      latencies.push(endedAt === undefined || endedAt < 0 ? PLAN.stalledAfterMs : endedAt - sentAt);
    }),
  );
  return summarize(latencies);
}

async function transactionsPerSecond(client: pg.Client, seconds: number): Promise<number> {
  const count = async () => {
    const { rows } = await client.query<{ n: string }>(
      'SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]?.n ?? 0);
  };
  const before = await count();
  await sleep(seconds * 1000);
  // pg_stat_database is updated when a backend reports, at most every second or so.
  await client.query('SELECT pg_stat_clear_snapshot()');
  const after = await count();
  // Minus the two counting queries of this connection.
  return (after - before - 2) / seconds;
}

async function idleCost(eventStoreUrl: string, store: EventStore) {
  const observer = new pg.Client({ connectionString: eventStoreUrl });
  const holder = new pg.Client({ connectionString: eventStoreUrl });
  await Promise.all([observer.connect(), holder.connect()]);
  try {
    const { rows } = await observer.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'event-store-consumer'",
    );
    const consumers = rows[0]?.n ?? 0;
    const quiet = await transactionsPerSecond(observer, PLAN.idleSeconds);
    await holder.query('BEGIN');
    await holder.query('SELECT pg_current_xact_id()');
    // One event committed behind the open transaction, of a type no consumer
    // filters for: held back below the snapshot's xmin for as long as it runs.
    await store.appendToStream(
      `bench-noise-${randomUUID()}`,
      [{ id: randomUUID(), type: 'BenchNoise', data: {} }],
      { expectedRevision: 'no_stream' },
    );
    const held = await transactionsPerSecond(observer, PLAN.idleSeconds);
    await holder.query('ROLLBACK');
    return { consumers, quiet, held };
  } finally {
    await Promise.all([observer.end(), holder.end()]);
  }
}

async function main(): Promise<void> {
  const label = process.argv[2] ?? 'this commit';
  const stack = await startStack({ env: { STACK_DURABILITY: 'durable', LOG_LEVEL: 'warn' } });
  const store = createPostgresEventStore({ url: stack.databases.eventStore });
  const ends = followOrderEnds(store);
  try {
    await fetch(`${stack.gatewayUrl}/api/inventory/${PLAN.sku}/restock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ quantity: 100_000 }),
    });
    process.stdout.write('  idle\n');
    const idle = await idleCost(stack.databases.eventStore, store);
    process.stdout.write('  healthy orders alone\n');
    const alone = await healthyLatencies(stack.gatewayUrl, ends);
    process.stdout.write(`  healthy orders with ${String(PLAN.failing)} failing ones\n`);
    await Promise.all(
      Array.from({ length: PLAN.failing }, () => placeOrder(stack.gatewayUrl, 'tok_error')),
    );
    const beside = await healthyLatencies(stack.gatewayUrl, ends);
    const section = formatSection({ label, idle, alone, beside });
    process.stdout.write(`${section}\n`);
    if (process.argv[2] === undefined) {
      await writeBenchmarkSection(BENCHMARKS_FILE, 'flow-control', section);
    }
  } finally {
    await ends.close();
    await store.close();
    await stack.stop();
  }
}

function formatSection(run: {
  label: string;
  idle: Awaited<ReturnType<typeof idleCost>>;
  alone: LatencySummary;
  beside: LatencySummary;
}): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const row = (name: string, l: LatencySummary) =>
    `| ${name} | ${String(l.count)} | ${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.max)} |`;
  const ratio = run.beside.p95 / run.alone.p95;
  const perConsumer = (tps: number) =>
    run.idle.consumers > 0 ? (tps / run.idle.consumers).toFixed(1) : 'n/a';
  return [
    '## Flow control: isolation and idle cost',
    '',
    `Written by \`pnpm bench\` (\`e2e/bench/flow-control.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}, ${run.label}.`,
    `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${String(availableParallelism())} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.`,
    `The stack as \`pnpm start\` runs it. Healthy orders (\`tok_approve\`) at ${String(PLAN.healthy.perSecond)}/s for ${String(PLAN.healthy.seconds)} s, alone, then while ${String(PLAN.failing)} orders paid with \`tok_error\` keep failing at the card processor. Latency: POST to OrderConfirmed; an order not confirmed within ${String(PLAN.stalledAfterMs / 1000)} s counts as that long.`,
    '',
    '| healthy orders | count | p50 | p95 | max |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('alone', run.alone),
    row(`beside ${String(PLAN.failing)} failing orders`, run.beside),
    '',
    `p95 ratio (beside / alone): **${ratio.toFixed(2)}**; target at most ${String(TARGET_RATIO)}: **${ratio <= TARGET_RATIO ? 'met' : 'missed'}**.`,
    '',
    `Idle: transactions per second on the event store's database over ${String(PLAN.idleSeconds)} s with no order in flight, ${String(run.idle.consumers)} consumer sessions (per consumer: the total divided by them).`,
    '',
    '| idle stack | transactions/s | per consumer |',
    '| --- | ---: | ---: |',
    `| nothing else running | ${run.idle.quiet.toFixed(1)} | ${perConsumer(run.idle.quiet)} |`,
    `| a transaction held open elsewhere, one unrelated event behind it | ${run.idle.held.toFixed(1)} | ${perConsumer(run.idle.held)} |`,
  ].join('\n');
}

await main();
