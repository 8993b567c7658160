// `pnpm bench` (e2e package), replicas: does running two processes of every
// saga service (STACK_REPLICAS) cost more per order, or add latency, than one
// of each? The same loads on both stacks, in one run, the two taking turns
// (one, two, one, two) so that the machine's noise falls on both; CPU from
// /proc of every process of each stack, PostgreSQL included.
import { randomUUID } from 'node:crypto';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createPostgresEventStore } from '@effectively-once/event-store';
import pg from 'pg';
import { writeBenchmarkSection } from '../../tooling/benchmarks-doc.js';
import { startStack } from '../support/start-stack.js';
import { followOrderEnds } from './order-ends.js';
import { diffResources, snapshotResources } from './resource-usage.js';
import { offerLoad, post, processesOf, type LoadResult } from './saga-load.js';

const BENCHMARKS_FILE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
const TWO_EACH = 'order=2,inventory=2,payment=2,notification=2';
const PLAN = {
  warmup: { perSecond: 10, seconds: 3 },
  loads: [
    { perSecond: 10, seconds: 15 },
    { perSecond: 25, seconds: 15 },
  ],
  /** One, two, one, two: each configuration measured twice, interleaved. */
  rounds: 2,
  sku: 'SKU-REPLICAS-BENCH',
} as const;
/** What the issue asks of replicas: within 10 % of one process each. */
const WITHIN = 0.1;

interface Row {
  readonly replicas: 'one each' | 'two each';
  readonly result: LoadResult;
  readonly cpuMsPerOrder: number;
}

async function measureStack(replicas: Row['replicas']): Promise<Row[]> {
  const stack = await startStack({
    env: {
      STACK_DURABILITY: 'durable',
      LOG_LEVEL: 'warn',
      ...(replicas === 'two each' ? { STACK_REPLICAS: TWO_EACH } : {}),
    },
  });
  const store = createPostgresEventStore({ url: stack.databases.eventStore });
  const ends = followOrderEnds(store);
  const observer = new pg.Client({ connectionString: stack.databases.eventStore });
  try {
    await observer.connect();
    await post(
      stack.gatewayUrl,
      `/api/inventory/${PLAN.sku}/restock`,
      { quantity: 1_000_000 },
      { 'idempotency-key': randomUUID() },
    );
    await offerLoad(stack.gatewayUrl, { ...PLAN.warmup, sku: PLAN.sku }, ends.ended, ends.waiters);
    const rows: Row[] = [];
    for (const load of PLAN.loads) {
      const before = await snapshotResources(processesOf(stack), observer);
      const result = await offerLoad(
        stack.gatewayUrl,
        { ...load, sku: PLAN.sku },
        ends.ended,
        ends.waiters,
      );
      const used = diffResources(before, await snapshotResources(processesOf(stack), observer));
      rows.push({
        replicas,
        result,
        cpuMsPerOrder: used.totalCpuMs / Math.max(1, result.confirmed),
      });
      process.stdout.write(
        `  ${replicas}, ${String(load.perSecond)}/s: ${String(result.confirmed)} confirmed, p99 ${result.latency.p99.toFixed(0)} ms, ${(used.totalCpuMs / Math.max(1, result.confirmed)).toFixed(1)} ms CPU per order\n`,
      );
    }
    return rows;
  } finally {
    await observer.end().catch(() => undefined);
    await ends.close();
    await store.close();
    await stack.stop();
  }
}

/** The rows of one configuration and load, pooled: latencies merged, CPU summed over orders. */
function pooled(rows: readonly Row[]) {
  const confirmed = rows.reduce((sum, row) => sum + row.result.confirmed, 0);
  const cpuMs = rows.reduce((sum, row) => sum + row.cpuMsPerOrder * row.result.confirmed, 0);
  const p99s = rows.map((row) => row.result.latency.p99);
  return {
    confirmed,
    posted: rows.reduce((sum, row) => sum + row.result.posted, 0),
    cpuMsPerOrder: cpuMs / Math.max(1, confirmed),
    p50s: rows.map((row) => row.result.latency.p50),
    p99s,
    worstP99: Math.max(...p99s),
  };
}

function formatSection(rows: readonly Row[], loadAtStart: number): string {
  const lines: string[] = [];
  const verdicts: string[] = [];
  for (const load of PLAN.loads) {
    const of = (replicas: Row['replicas']) =>
      pooled(
        rows.filter(
          (row) => row.replicas === replicas && row.result.offeredPerSecond === load.perSecond,
        ),
      );
    const one = of('one each');
    const two = of('two each');
    for (const [name, side] of [
      ['one each', one],
      ['two each', two],
    ] as const) {
      lines.push(
        `| ${String(load.perSecond)} | ${name} | ${String(side.posted)} | ${String(side.confirmed)} | ${side.cpuMsPerOrder.toFixed(1)} | ${side.p50s.map((ms) => ms.toFixed(0)).join(', ')} | ${side.p99s.map((ms) => ms.toFixed(0)).join(', ')} |`,
      );
    }
    const cpuRatio = two.cpuMsPerOrder / one.cpuMsPerOrder;
    const p99Ratio = two.worstP99 / one.worstP99;
    verdicts.push(
      `At ${String(load.perSecond)}/s, two each against one each: CPU per order ${((cpuRatio - 1) * 100).toFixed(0)} %, worst p99 ${((p99Ratio - 1) * 100).toFixed(0)} % (**${cpuRatio <= 1 + WITHIN && p99Ratio <= 1 + WITHIN ? 'within' : 'not within'}** ${String(WITHIN * 100)} %).`,
    );
  }
  return [
    '## Replicas',
    '',
    `Written by \`pnpm bench\` (\`e2e/bench/replicas.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}.`,
    `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${String(availableParallelism())} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${loadAtStart.toFixed(1)} at start.`,
    `The stack as \`pnpm start\` runs it (durable commits, the embedded event store), with one process of each saga service, and with \`STACK_REPLICAS=${TWO_EACH}\`. The two took turns, ${String(PLAN.rounds)} stacks each, each warmed up for ${String(PLAN.warmup.seconds)} s; every row is 15 s of \`tok_approve\` orders on a fixed schedule. CPU: every process of the stack from \`/proc\`, PostgreSQL included, per confirmed order; p50 and p99 are listed per stack, POST to \`OrderConfirmed\`.`,
    '',
    '| offered orders/s | saga services | posted | confirmed | CPU per order (ms) | p50 (ms) | p99 (ms) |',
    '| ---: | --- | ---: | ---: | ---: | --- | --- |',
    ...lines,
    '',
    ...verdicts,
  ].join('\n');
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? 0;
  const rows: Row[] = [];
  for (let round = 0; round < PLAN.rounds; round++) {
    for (const replicas of ['one each', 'two each'] as const) {
      process.stdout.write(`replicas bench, round ${String(round + 1)}: ${replicas}\n`);
      rows.push(...(await measureStack(replicas)));
    }
  }
  const section = formatSection(rows, loadAtStart);
  process.stdout.write(`${section}\n`);
  if (!process.argv.includes('--no-docs')) {
    await writeBenchmarkSection(BENCHMARKS_FILE, 'replicas', section);
  }
}

await main();
