// `pnpm bench` (e2e package), batching: what do batched deliveries (ADR 0036,
// CONSUMER_BATCH_SIZE) save per order under a backlog, and do they cost
// anything at low load? The same loads on a stack with batching off
// (CONSUMER_BATCH_SIZE=1) and on (the default, 16), taking turns in one run so
// that the machine's noise falls on both; CPU from /proc of every process of
// each stack, PostgreSQL included.
import { randomUUID } from 'node:crypto';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_CONSUMER_CONFIG } from '@effectively-once/service-kit';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import pg from 'pg';
import { writeBenchmarkSection } from '../../tooling/benchmarks-doc.js';
import { startStack } from '../support/start-stack.js';
import { followOrderEnds } from './order-ends.js';
import {
  countFunctionCalls,
  diffResources,
  snapshotResources,
  type ResourceUse,
} from './resource-usage.js';
import { offerLoad, post, processesOf, type LoadResult } from './saga-load.js';
import {
  formatStatements,
  readStatementCounts,
  startCountingStatements,
  statementsPerOrder,
  STATEMENT_COUNTING_SETTINGS,
  type StatementCounts,
} from './statement-counts.js';

const BENCHMARKS_FILE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
const BATCH_SIZE = { off: 1, on: DEFAULT_CONSUMER_CONFIG.batchSize } as const;
type Batching = keyof typeof BATCH_SIZE;

// `--loads 25,40` runs only those rows; `--no-docs` prints without touching docs/benchmarks.md;
// `--statements` also prints, per row, the event store's statements per order (pg_stat_statements).
const { values: ARGS } = parseArgs({
  options: {
    loads: { type: 'string' },
    'no-docs': { type: 'boolean', default: false },
    statements: { type: 'boolean', default: false },
  },
});
const LOADS = (ARGS.loads ?? '10,25,40').split(',').map((text) => {
  const perSecond = Number(text);
  if (!Number.isInteger(perSecond) || perSecond <= 0) {
    throw new Error(`--loads takes orders per second separated by commas, not "${text}"`);
  }
  return { perSecond, seconds: 15 };
});
const PLAN = { warmup: { perSecond: 10, seconds: 3 }, sku: 'SKU-BATCHING-BENCH' } as const;
/** PostgreSQL's idle backends report their counters after up to 10 s (PGSTAT_IDLE_INTERVAL). */
const STATS_SETTLE_MS = 11_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));

interface Row {
  readonly batching: Batching;
  readonly result: LoadResult;
  readonly used: ResourceUse;
  /** Commits of every database of the server (the services' and the event store's). */
  readonly allCommits: number;
}

async function allDatabaseCommits(observer: pg.Client): Promise<number> {
  const { rows } = await observer.query<{ commits: string | null }>(
    'SELECT sum(xact_commit)::text AS commits FROM pg_stat_database',
  );
  return Number(rows[0]?.commits ?? 0);
}

async function measureStack(batching: Batching): Promise<Row[]> {
  const stack = await startStack({
    env: {
      STACK_DURABILITY: 'durable',
      LOG_LEVEL: 'warn',
      CONSUMER_BATCH_SIZE: String(BATCH_SIZE[batching]),
      ...(ARGS.statements ? { STACK_POSTGRES_SETTINGS: STATEMENT_COUNTING_SETTINGS } : {}),
    },
  });
  const store = createPostgresEventStore({ url: stack.databases.eventStore });
  const ends = followOrderEnds(store);
  const observer = new pg.Client({ connectionString: stack.databases.eventStore });
  try {
    await observer.connect();
    await countFunctionCalls(observer);
    if (ARGS.statements) await startCountingStatements(observer);
    const statements = async (): Promise<StatementCounts> =>
      ARGS.statements ? readStatementCounts(observer) : new Map();
    await post(
      stack.gatewayUrl,
      `/api/inventory/${PLAN.sku}/restock`,
      { quantity: 1_000_000 },
      { 'idempotency-key': randomUUID() },
    );
    await offerLoad(stack.gatewayUrl, { ...PLAN.warmup, sku: PLAN.sku }, ends.ended, ends.waiters);
    const snapshot = async () => ({
      resources: await snapshotResources(processesOf(stack), observer),
      allCommits: await allDatabaseCommits(observer),
      statements: await statements(),
    });
    // What the idle stack does in one settling wait, subtracted from each row's counts.
    await settle();
    const idleFrom = await snapshot();
    await settle();
    const idleTo = await snapshot();
    const idle = diffResources(idleFrom.resources, idleTo.resources);
    const idleAllCommits = idleTo.allCommits - idleFrom.allCommits;
    const idleStatements = new Map(
      [...idleTo.statements].map(([statement, calls]) => [
        statement,
        calls - (idleFrom.statements.get(statement) ?? 0),
      ]),
    );
    const rows: Row[] = [];
    let before = idleTo;
    for (const load of LOADS) {
      const result = await offerLoad(
        stack.gatewayUrl,
        { ...load, sku: PLAN.sku },
        ends.ended,
        ends.waiters,
      );
      const atEnd = diffResources(before.resources, (await snapshot()).resources);
      await settle();
      const settled = await snapshot();
      const counted = diffResources(before.resources, settled.resources);
      const used: ResourceUse = {
        ...atEnd,
        eventStoreCommits: counted.eventStoreCommits - idle.eventStoreCommits,
        eventStoreConsumeRounds: counted.eventStoreConsumeRounds - idle.eventStoreConsumeRounds,
      };
      rows.push({
        batching,
        result,
        used,
        allCommits: settled.allCommits - before.allCommits - idleAllCommits,
      });
      process.stdout.write(
        `  batching ${batching}, ${String(load.perSecond)}/s: ${String(result.confirmed)} confirmed, p99 ${result.latency.p99.toFixed(0)} ms, ${(used.totalCpuMs / Math.max(1, result.confirmed)).toFixed(1)} ms CPU per order, load average ${(loadavg()[0] ?? 0).toFixed(1)}\n`,
      );
      if (ARGS.statements) {
        const perOrder = statementsPerOrder(
          before.statements,
          settled.statements,
          idleStatements,
          result.confirmed,
        );
        process.stdout.write(
          `  the event store's statements per order:\n${formatStatements(perOrder)}\n`,
        );
      }
      before = settled;
    }
    return rows;
  } finally {
    await observer.end().catch(() => undefined);
    await ends.close();
    await store.close();
    await stack.stop();
  }
}

function formatRow(row: Row): string {
  const { result, used } = row;
  const orders = Math.max(1, result.confirmed);
  const perOrder = (value: number) => (value / orders).toFixed(1);
  return `| ${String(result.offeredPerSecond)} | ${row.batching} | ${String(result.posted)} | ${String(result.confirmed)} | ${result.completedPerSecond.toFixed(1)} | ${result.latency.p50.toFixed(0)} | ${result.latency.p99.toFixed(0)} | ${perOrder(used.totalCpuMs)} | ${perOrder(used.cpuMs.get('postgres') ?? 0)} | ${perOrder(used.eventStoreConsumeRounds)} | ${perOrder(used.eventStoreCommits)} | ${perOrder(row.allCommits)} |`;
}

function formatSection(rows: readonly Row[], loadAverages: readonly number[]): string {
  const sorted = [...rows].sort(
    (a, b) =>
      a.result.offeredPerSecond - b.result.offeredPerSecond || a.batching.localeCompare(b.batching),
  );
  return [
    '## Batched deliveries',
    '',
    `Written by \`pnpm bench\` (\`e2e/bench/batching.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}.`,
    `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${String(availableParallelism())} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${loadAverages.map((value) => value.toFixed(1)).join(', ')} at the start of each stack.`,
    `The stack as \`pnpm start\` runs it (durable commits, the embedded event store), with \`CONSUMER_BATCH_SIZE=1\` (off) and \`=${String(BATCH_SIZE.on)}\` (on, the default) in turn, each warmed up for ${String(PLAN.warmup.seconds)} s; every row is 15 s of \`tok_approve\` orders on a fixed schedule. Batching applies to inventory's two consumers and the order saga (ADR 0036). CPU: every process of the stack from \`/proc\`, PostgreSQL included, per confirmed order. Consumer rounds (calls of \`es_consume\`) and commits (\`pg_stat_database\`, the event store's and all databases') are read ${String(STATS_SETTLE_MS / 1000)} s after each load, less what the idle stack does in that time.`,
    '',
    '| offered orders/s | batching | posted | confirmed | completed orders/s | p50 (ms) | p99 (ms) | CPU per order (ms) | of which PostgreSQL (ms) | consumer rounds per order | event-store commits per order | all commits per order |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...sorted.map(formatRow),
  ].join('\n');
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const loadAverages: number[] = [];
  for (const batching of ['off', 'on'] as const) {
    process.stdout.write(`batching bench: batching ${batching}\n`);
    loadAverages.push(loadavg()[0] ?? 0);
    rows.push(...(await measureStack(batching)));
  }
  const section = formatSection(rows, loadAverages);
  process.stdout.write(`${section}\n`);
  if (!ARGS['no-docs']) await writeBenchmarkSection(BENCHMARKS_FILE, 'batching', section);
}

await main();
