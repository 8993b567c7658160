// `pnpm bench` (e2e package): the whole saga under a fixed offered load, on
// the embedded defaults that `pnpm start` uses (durable PostgreSQL, embedded
// event store). Orders are posted through the gateway on a fixed schedule,
// whether or not earlier ones have finished (an open loop, so a slow system
// cannot slow the load down and flatter its own latency); the end of each
// order is observed on the event store itself, not by polling the API.
import { randomUUID } from 'node:crypto';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import { writeBenchmarkSection } from '../../tooling/benchmarks-doc.js';
import pg from 'pg';
import { startStack } from '../support/start-stack.js';
import { followOrderEnds } from './order-ends.js';
import { databaseNow, relayBatchesSince, type RelayBatches } from './relay-batches.js';
import { offerLoad, post, processesOf, type LoadResult } from './saga-load.js';
import {
  diffResources,
  snapshotResources,
  type ResourceSnapshot,
  type ResourceUse,
} from './resource-usage.js';

const BENCHMARKS_FILE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
const PLAN = {
  warmup: { perSecond: 20, seconds: 3 },
  // Below capacity first, where latency means something, then the target load.
  loads: [
    { perSecond: 10, seconds: 15 },
    { perSecond: 20, seconds: 15 },
    { perSecond: 50, seconds: 15 },
    { perSecond: 100, seconds: 15 },
  ],
  sku: 'SKU-BENCH',
  stock: 1_000_000,
  /** The "flat with the log" row: the first load again, with this many events already stored. */
  seededEvents: 200_000,
} as const;
const TARGET = { ordersPerSecond: 100, p99Ms: 300 };

/** A row of the table: the load's result, with how the outbox relays batched meanwhile. */
type SagaRow = LoadResult & { relayBatches?: RelayBatches };

// For profiling one change: `--loads 10,50 --no-seed --no-docs` runs only
// those rows and prints them without touching docs/benchmarks.md.
// `--tracing on,off` (the default) says which stacks run, one after the other:
// `on` traces as `pnpm start` does (to the console, or to
// OTEL_EXPORTER_OTLP_ENDPOINT when set), `off` sets OTEL_SDK_DISABLED=true so
// that no process starts the OpenTelemetry SDK. The first stack runs every
// row; each further one the first load again, so that one run gives tracing's
// cost side by side (docs/observability.md#what-tracing-costs).
// `--loads 10 --no-seed --tracing off,on,off,on` alternates them, which shows
// how much of a difference is the machine's noise. `sampled` traces as `on`
// with a parent-based sampler keeping one trace in ten (TRACING_MODES), as a
// production deployment might: whole orders' traces, a tenth of them.
// `no-pg` traces as `on` without the `pg` instrumentation
// (OTEL_NODE_DISABLED_INSTRUMENTATIONS=pg): every span but the statements'.
// `no-instrumentations` turns off `http` and `undici` too, leaving the kit's
// own spans; `sdk-only` records none of those either (sampler always_off):
// what a process pays for having the SDK started at all.
// `--warmup 20 --row-seconds 30` warms each stack for 20 s at the first row's
// load (instead of 3 s at 20/s) and measures 30 s rows (instead of 15 s): in a
// short row part of what tracing seems to cost is the SDK's code still being
// compiled and optimised (docs/observability.md#a-longer-warm-up).
const { values: ARGS } = parseArgs({
  options: {
    loads: { type: 'string' },
    warmup: { type: 'string' },
    'row-seconds': { type: 'string' },
    'no-seed': { type: 'boolean', default: false },
    'no-docs': { type: 'boolean', default: false },
    tracing: { type: 'string', default: 'on,off' },
  },
});
/**
 * Each tracing mode: the variables its stack gets (read by the SDK in each
 * process), and how the doc's header line describes it.
 */
const TRACING_MODES = {
  on: { env: {}, says: 'as `pnpm start` traces' },
  off: { env: { OTEL_SDK_DISABLED: 'true' }, says: 'no SDK' },
  sampled: {
    env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
    says: 'one trace in ten kept, whole',
  },
  'no-pg': {
    env: { OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' },
    says: 'no statement spans',
  },
  'no-instrumentations': {
    env: { OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg,http,undici' },
    says: "only the kit's own spans (deliveries, appends, SMTP, timers)",
  },
  'sdk-only': {
    env: {
      OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg,http,undici',
      OTEL_TRACES_SAMPLER: 'always_off',
    },
    says: 'the SDK started, no instrumentation, no span recorded',
  },
} as const satisfies Record<string, { env: Record<string, string>; says: string }>;
type Tracing = keyof typeof TRACING_MODES;
const isTracing = (mode: string): mode is Tracing => Object.hasOwn(TRACING_MODES, mode);
const TRACING: readonly Tracing[] = ARGS.tracing.split(',').map((mode) => {
  if (!isTracing(mode)) {
    throw new Error(
      `--tracing takes ${Object.keys(TRACING_MODES).join(', ')} separated by commas, not "${ARGS.tracing}"`,
    );
  }
  return mode;
});
/** A whole number of seconds from an option, or the default when it is absent. */
function secondsOption(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds <= 0)
    throw new Error(`--${name} takes a whole number of seconds, not "${text}"`);
  return seconds;
}
const ROW_SECONDS = secondsOption('row-seconds', ARGS['row-seconds'], 15);

function plannedLoads(): readonly { perSecond: number; seconds: number }[] {
  if (ARGS.loads === undefined)
    return PLAN.loads.map((load) => ({ ...load, seconds: ROW_SECONDS }));
  return ARGS.loads.split(',').map((text) => {
    const perSecond = Number(text);
    if (!Number.isInteger(perSecond) || perSecond <= 0)
      throw new Error(`--loads takes orders per second separated by commas, not "${text}"`);
    return { perSecond, seconds: ROW_SECONDS };
  });
}

/** The warm-up before the rows: the plan's, or `--warmup` seconds at the first row's load. */
function plannedWarmup(loads: readonly { perSecond: number }[]): {
  perSecond: number;
  seconds: number;
} {
  if (ARGS.warmup === undefined) return PLAN.warmup;
  const seconds = secondsOption('warmup', ARGS.warmup, PLAN.warmup.seconds);
  return { perSecond: loads[0]?.perSecond ?? PLAN.warmup.perSecond, seconds };
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? 0;
  const loads = plannedLoads();
  const warmup = plannedWarmup(loads);
  const results: SagaRow[] = [];
  let names = new Set<string>();
  for (const [index, tracing] of TRACING.entries()) {
    process.stdout.write(`  a stack with tracing ${tracing}\n`);
    const run = await runStack({
      tracing,
      warmup,
      loads: index === 0 ? loads : loads.slice(0, 1),
      seed: index === 0 && !ARGS['no-seed'],
      // One mode: the rows as they always were; more: each row says its stack's.
      labelOf: (label, perSecond) =>
        TRACING.length === 1 ? label : `${label ?? `${String(perSecond)}/s`}, tracing ${tracing}`,
    });
    results.push(...run.results);
    names = run.names;
  }
  const section = formatSection(results, loadAtStart, names, warmup);
  process.stdout.write(`${section}\n`);
  if (!ARGS['no-docs']) await writeBenchmarkSection(BENCHMARKS_FILE, 'saga', section);
}

/** One stack, from start to stop: its rows, and the names of its processes. */
async function runStack(input: {
  tracing: Tracing;
  warmup: { perSecond: number; seconds: number };
  loads: readonly { perSecond: number; seconds: number }[];
  seed: boolean;
  labelOf: (label: string | undefined, perSecond: number) => string | undefined;
}): Promise<{ results: SagaRow[]; names: Set<string> }> {
  const stack = await startStack({
    env: {
      STACK_DURABILITY: 'durable',
      LOG_LEVEL: 'warn',
      ...TRACING_MODES[input.tracing].env,
      // lab:begin
      // As `pnpm start` runs it: the console's feed reads the store too, and issue 13 counts it.
      STACK_CONSOLE: 'true',
      // lab:end
    },
  });
  const eventStoreUrl = stack.databases.eventStore;
  const store = createPostgresEventStore({ url: eventStoreUrl });
  const ends = followOrderEnds(store);
  const { ended, waiters } = ends;

  try {
    await post(
      stack.gatewayUrl,
      `/api/inventory/${PLAN.sku}/restock`,
      { quantity: PLAN.stock },
      { 'idempotency-key': randomUUID() },
    );
    await offerLoad(stack.gatewayUrl, { ...input.warmup, sku: PLAN.sku }, ended, waiters);
    const observer = new pg.Client({ connectionString: eventStoreUrl });
    await observer.connect();
    // A backend's counts reach pg_stat_database when it next reports, which a
    // busy server can put off by up to 10 s: a row read at once would count
    // some of the warm-up's commits and miss some of its own. So the counts are
    // read once they settled, before a row and after it, less what the idle
    // stack commits meanwhile (measured once, here). CPU is read at the row's
    // own start and end, as before.
    const snapshot = () => snapshotResources(processesOf(stack), observer);
    const idle = await idleCountRates(snapshot);
    const measured = async (load: { perSecond: number; seconds: number }, label?: string) => {
      await sleep(STATS_SETTLE_MS);
      process.stdout.write(
        `    load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}\n`,
      );
      const before = await snapshot();
      const rowStartedAt = await databaseNow(eventStoreUrl);
      const result = await offerLoad(stack.gatewayUrl, { ...load, sku: PLAN.sku }, ended, waiters);
      const atEnd = await snapshot();
      const endedAt = performance.now();
      await sleep(STATS_SETTLE_MS);
      const settled = await snapshot();
      const settledMs = performance.now() - endedAt;
      const resources = diffResources(before, {
        ...atEnd,
        eventStoreCommits: settled.eventStoreCommits - idle.commitsPerMs * settledMs,
        eventStoreRowsReturned: settled.eventStoreRowsReturned - idle.rowsPerMs * settledMs,
      });
      const { order, inventory, payment, notification } = stack.databases;
      const relayBatches = await relayBatchesSince(
        [order, inventory, payment, notification],
        rowStartedAt,
      );
      const shown = input.labelOf(label, load.perSecond);
      return {
        ...result,
        resources,
        relayBatches,
        ...(shown === undefined ? {} : { label: shown }),
      };
    };
    const results: SagaRow[] = [];
    for (const load of input.loads) {
      process.stdout.write(`  ${String(load.perSecond)} orders/s for ${String(load.seconds)} s\n`);
      results.push(await measured(load));
    }
    const first = input.loads[0];
    if (input.seed && first !== undefined) {
      process.stdout.write(
        `  seeding ${String(PLAN.seededEvents)} events, then the first row again\n`,
      );
      await seedEvents(store, PLAN.seededEvents);
      // Measure the long log, not the catching up: every group first reads past the seeded events.
      await groupsCaughtUp(observer);
      await offerLoad(stack.gatewayUrl, { ...input.warmup, sku: PLAN.sku }, ended, waiters);
      results.push(
        await measured(
          first,
          `${String(first.perSecond)}, ${String(PLAN.seededEvents / 1000)}k events stored`,
        ),
      );
    }
    await observer.end();
    return { results, names: new Set(processesOf(stack).named().keys()) };
  } finally {
    await ends.close();
    await store.close();
    await stack.stop();
  }
}

/** Longer than PostgreSQL's longest delay before an idle backend reports its counts (10 s). */
const STATS_SETTLE_MS = 11_000;

/** The event store's commits and rows returned per ms with no order in flight. */
async function idleCountRates(
  snapshot: () => Promise<ResourceSnapshot>,
): Promise<{ commitsPerMs: number; rowsPerMs: number }> {
  await sleep(STATS_SETTLE_MS);
  const first = await snapshot();
  const firstAt = performance.now();
  await sleep(STATS_SETTLE_MS);
  const second = await snapshot();
  const ms = performance.now() - firstAt;
  return {
    commitsPerMs: (second.eventStoreCommits - first.eventStoreCommits) / ms,
    rowsPerMs: (second.eventStoreRowsReturned - first.eventStoreRowsReturned) / ms,
  };
}

async function groupsCaughtUp(observer: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await observer.query<{ behind: number }>(`
      SELECT count(*)::int AS behind FROM es_subscription_group g
       WHERE EXISTS (SELECT 1 FROM es_event e WHERE e.event_type = 'BenchSeeded'
                        AND (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position))`);
    if ((rows[0]?.behind ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Events no consumer acts on, appended in batches, so the log is long but the saga's work is the same. */
async function seedEvents(store: ReturnType<typeof createPostgresEventStore>, count: number) {
  const batch = 1000;
  for (let appended = 0; appended < count; appended += batch) {
    await store.appendToStream(
      `bench-seed-${randomUUID()}`,
      Array.from({ length: Math.min(batch, count - appended) }, () => ({
        id: randomUUID(),
        type: 'BenchSeeded',
        data: { padding: 'x'.repeat(200) },
      })),
      { expectedRevision: 'no_stream' },
    );
  }
}

function formatSection(
  results: readonly SagaRow[],
  loadAtStart: number,
  names: ReadonlySet<string>,
  warmup: { perSecond: number; seconds: number },
): string {
  const processCount = names.size + 1;
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const at100 = results.find((result) => result.offeredPerSecond === TARGET.ordersPerSecond);
  const met =
    at100 !== undefined &&
    at100.completedPerSecond >= TARGET.ordersPerSecond * 0.98 &&
    at100.confirmed === at100.posted &&
    at100.latency.p99 < TARGET.p99Ms;
  const rows = results.map(
    (r) =>
      `| ${r.label ?? String(r.offeredPerSecond)} | ${String(r.posted)} | ${String(r.confirmed)} | ${r.completedPerSecond.toFixed(1)} | ${ms(r.latency.p50)} | ${ms(r.latency.p95)} | ${ms(r.latency.p99)} | ${ms(r.latency.max)} |`,
  );
  return [
    '## The saga end to end',
    '',
    `Written by \`pnpm bench\` (\`e2e/bench/saga.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}.`,
    `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${String(availableParallelism())} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${loadAtStart.toFixed(1)} at start.`,
    `The stack as \`pnpm start\` runs it: ${String(processCount)} Node.js processes (the supervisor and ${[...names].sort().join(', ')}), embedded PostgreSQL with durable commits, the embedded event store.`,
    `Tracing ${TRACING.map((mode) => `\`${mode}\``).join(', then ')}, one stack each (the first runs every row, the others the first load): ${[
      ...new Set(TRACING),
    ]
      .map((mode) => {
        const env = Object.entries(TRACING_MODES[mode].env).map(
          ([name, value]) => `${name}=${value}`,
        );
        return `\`${mode}\` ${TRACING_MODES[mode].says}${env.length > 0 ? ` (\`${env.join(' ')}\`)` : ''}`;
      })
      .join(', ')}.`,
    'Each order: one line, `tok_approve`. Latency: from sending `POST /api/orders` to `OrderConfirmed` in the order stream.',
    `Orders are sent on a fixed schedule for ${String(ROW_SECONDS)} s per row (an open loop), after a ${String(warmup.seconds)} s warm-up at ${String(warmup.perSecond)}/s; each row starts once the previous one has drained.`,
    '',
    '| offered orders/s | posted | confirmed | completed orders/s | p50 | p95 | p99 | max |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    ...resourceTable(results),
    '',
    `Target: at least ${String(TARGET.ordersPerSecond)} orders/s completed with p99 under ${String(TARGET.p99Ms)} ms at an offered ${String(TARGET.ordersPerSecond)}/s: **${met ? 'met' : 'missed'}** in this run.`,
  ].join('\n');
}

function averagePerBatch(batches: RelayBatches | undefined, of: 'streams' | 'rows'): string {
  if (batches === undefined || batches.batches === 0) return '';
  return (batches[of] / batches.batches).toFixed(2);
}

/** CPU per completed order, by process, and the event store's database counters per order. */
function resourceTable(results: readonly SagaRow[]): string[] {
  const measured = results.filter((r) => r.resources !== undefined && r.confirmed > 0);
  const names = [
    ...new Set(measured.flatMap((r) => [...(r.resources?.cpuMs.keys() ?? [])])),
  ].sort();
  const perOrder = (r: SagaRow, ms: number) => (ms / r.confirmed).toFixed(1);
  const header = measured.map((r) => r.label ?? `${String(r.offeredPerSecond)}/s`);
  const line = (name: string, cell: (r: SagaRow, use: ResourceUse) => string) =>
    `| ${name} | ${measured.map((r) => (r.resources === undefined ? '' : cell(r, r.resources))).join(' | ')} |`;
  return [
    'Per completed order, from `/proc/<pid>/stat` of every process of the stack (PostgreSQL: the postmaster, what it reaped and its live backends) and `pg_stat_database` of the event store. The database counts are read 11 s after each row ended, once every backend has reported them (a busy server delays that by up to 10 s), less what the idle stack commits and reads in that time, measured before the first row:',
    '',
    `| per order | ${header.join(' | ')} |`,
    `| --- | ${header.map(() => '---:').join(' | ')} |`,
    line('**CPU, all processes (ms)**', (r, use) => `**${perOrder(r, use.totalCpuMs)}**`),
    ...names.map((name) =>
      line(`CPU ${name} (ms)`, (r, use) => perOrder(r, use.cpuMs.get(name) ?? 0)),
    ),
    line('of which event-store backends (ms)', (r, use) => perOrder(r, use.eventStoreBackendsMs)),
    line('event-store commits', (r, use) => perOrder(r, use.eventStoreCommits)),
    line('event-store rows returned', (r, use) => perOrder(r, use.eventStoreRowsReturned)),
    line('outbox relay batches', (r) => perOrder(r, r.relayBatches?.batches ?? 0)),
    line('streams per relay batch (average, not per order)', (r) =>
      averagePerBatch(r.relayBatches, 'streams'),
    ),
    line('rows per relay batch (average, not per order)', (r) =>
      averagePerBatch(r.relayBatches, 'rows'),
    ),
  ];
}

await main();
