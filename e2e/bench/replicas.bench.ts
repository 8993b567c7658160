// `pnpm bench` (e2e package), replicas: does running two processes of every
// saga service (STACK_REPLICAS) cost more per order, or add latency, than one
// of each? The same loads on both stacks, in one run, the two taking turns
// (one, two, one, two) so that the machine's noise falls on both; CPU from
// /proc of every process of each stack, PostgreSQL included. With
// --compare-wake, each is also run with EVENTSTORE_WAKE_CONSUMERS=all (every
// consumer of a group answers every append, as before ADR 0039) beside the
// default (one consumer per stream); with --compare-idle-check, with
// EVENTSTORE_IDLE_CHECK=off (every poll runs a round) beside the default
// (a poll asks first, read-only); with --compare-channels, with
// EVENTSTORE_NOTIFY_CHANNELS=one (every subscriber hears every append) beside
// the default (a consumer hears only its event types' appends); --rounds N
// changes the number of turns.
import { randomUUID } from 'node:crypto';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
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

function numberAfter(flag: string): number | undefined {
  const index = process.argv.indexOf(flag);
  const value = index < 0 ? undefined : Number(process.argv[index + 1]);
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : undefined;
}

const BENCHMARKS_FILE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
const TWO_EACH = 'order=2,inventory=2,payment=2,notification=2';
const PLAN = {
  warmup: { perSecond: 10, seconds: 3 },
  loads: [
    { perSecond: 10, seconds: 15 },
    { perSecond: 25, seconds: 15 },
  ],
  /** Seconds with no orders at all, to measure what the processes cost by just running. */
  idleSeconds: 10,
  /** One, two, one, two: each configuration measured twice, interleaved (--rounds N). */
  rounds: numberAfter('--rounds') ?? 2,
  /** The defaults, or with a --compare-… flag the old way beside them. */
  variants: variantsCompared(),
  sku: 'SKU-REPLICAS-BENCH',
} as const;
/**
 * A PostgreSQL backend that goes idle reports its counters (commits, function
 * calls) only after up to 10 s (PGSTAT_IDLE_INTERVAL): read them after this
 * wait, or a load's commits are counted in the next row.
 */
const STATS_SETTLE_MS = 11_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
/** What the issue asks of replicas: within 10 % of one process each. */
const WITHIN = 0.1;

/** One way to run the stacks: its name in the tables, and the env that sets it. */
interface Variant {
  readonly name: string;
  readonly env: Readonly<Record<string, string>>;
  /** What the section says it is. */
  readonly described: string;
}

function variantsCompared(): readonly Variant[] {
  if (process.argv.includes('--compare-wake')) {
    return [
      {
        name: 'wake all',
        env: { EVENTSTORE_WAKE_CONSUMERS: 'all' },
        described:
          '`EVENTSTORE_WAKE_CONSUMERS=all` (every consumer of a group answers every append, as before ADR 0039)',
      },
      { name: 'wake one', env: {}, described: 'the default `one`' },
    ];
  }
  if (process.argv.includes('--compare-idle-check')) {
    return [
      {
        name: 'check off',
        env: { EVENTSTORE_IDLE_CHECK: 'off' },
        described: '`EVENTSTORE_IDLE_CHECK=off` (every poll runs a round, a commit)',
      },
      {
        name: 'check on',
        env: {},
        described:
          'the default `on` (a poll asks first, read-only, and runs a round only on a yes)',
      },
    ];
  }
  if (process.argv.includes('--compare-channels')) {
    return [
      {
        name: 'one channel',
        env: { EVENTSTORE_NOTIFY_CHANNELS: 'one' },
        described:
          '`EVENTSTORE_NOTIFY_CHANNELS=one` (every subscriber hears every append, as before)',
      },
      {
        name: 'per type',
        env: {},
        described: 'the default `per-type` (a consumer listens only to its event types’ channels)',
      },
    ];
  }
  return [{ name: 'defaults', env: {}, described: 'the defaults' }];
}

interface Row {
  readonly replicas: 'one each' | 'two each';
  readonly variant: Variant['name'];
  readonly result: LoadResult;
  readonly cpuMsPerOrder: number;
  readonly used: ResourceUse;
}

interface IdleRow {
  readonly replicas: Row['replicas'];
  readonly variant: Variant['name'];
  /** CPU ms per second of every process of the stack, no orders coming. */
  readonly cpuMsPerSecond: number;
  readonly commitsPerSecond: number;
  readonly roundsPerSecond: number;
  /** Transaction ids the whole server handed out per second (writes only). */
  readonly xidsPerSecond: number;
  readonly walBytesPerSecond: number;
}

/** A service's processes (payment, payment-2) summed under its name. */
function cpuByService(cpuMs: ReadonlyMap<string, number>): Map<string, number> {
  const byService = new Map<string, number>();
  for (const [name, ms] of cpuMs) {
    const service = name.replace(/-\d+$/, '');
    byService.set(service, (byService.get(service) ?? 0) + ms);
  }
  return byService;
}

async function measureStack(
  replicas: Row['replicas'],
  variant: Variant,
): Promise<{ rows: Row[]; idle: IdleRow }> {
  const stack = await startStack({
    env: {
      STACK_DURABILITY: 'durable',
      LOG_LEVEL: 'warn',
      ...variant.env,
      ...(replicas === 'two each' ? { STACK_REPLICAS: TWO_EACH } : {}),
    },
  });
  const store = createPostgresEventStore({ url: stack.databases.eventStore });
  const ends = followOrderEnds(store);
  const observer = new pg.Client({ connectionString: stack.databases.eventStore });
  try {
    await observer.connect();
    await countFunctionCalls(observer);
    await post(
      stack.gatewayUrl,
      `/api/inventory/${PLAN.sku}/restock`,
      { quantity: 1_000_000 },
      { 'idempotency-key': randomUUID() },
    );
    await offerLoad(stack.gatewayUrl, { ...PLAN.warmup, sku: PLAN.sku }, ends.ended, ends.waiters);
    const snapshot = () => snapshotResources(processesOf(stack), observer);
    await settle();
    const idleBefore = await snapshot();
    await new Promise((resolve) => setTimeout(resolve, PLAN.idleSeconds * 1000));
    const idleUse = diffResources(idleBefore, await snapshot());
    const idle: IdleRow = {
      replicas,
      variant: variant.name,
      cpuMsPerSecond: idleUse.totalCpuMs / PLAN.idleSeconds,
      commitsPerSecond: idleUse.eventStoreCommits / PLAN.idleSeconds,
      roundsPerSecond: idleUse.eventStoreConsumeRounds / PLAN.idleSeconds,
      xidsPerSecond: idleUse.serverTransactionIds / PLAN.idleSeconds,
      walBytesPerSecond: idleUse.serverWalBytes / PLAN.idleSeconds,
    };
    const rows: Row[] = [];
    let before = await snapshot();
    for (const load of PLAN.loads) {
      const result = await offerLoad(
        stack.gatewayUrl,
        { ...load, sku: PLAN.sku },
        ends.ended,
        ends.waiters,
      );
      // CPU as the load ends; PostgreSQL's counters once its backends have
      // reported them, less what the idle stack does in that wait.
      const atEnd = diffResources(before, await snapshot());
      await settle();
      const settled = await snapshot();
      const counted = diffResources(before, settled);
      const settleSeconds = STATS_SETTLE_MS / 1000;
      const used: ResourceUse = {
        ...atEnd,
        eventStoreCommits: counted.eventStoreCommits - idle.commitsPerSecond * settleSeconds,
        eventStoreConsumeRounds:
          counted.eventStoreConsumeRounds - idle.roundsPerSecond * settleSeconds,
      };
      before = settled;
      rows.push({
        replicas,
        variant: variant.name,
        result,
        cpuMsPerOrder: used.totalCpuMs / Math.max(1, result.confirmed),
        used,
      });
      process.stdout.write(
        `  ${replicas}, ${variant.name}, ${String(load.perSecond)}/s: ${String(result.confirmed)} confirmed, p99 ${result.latency.p99.toFixed(0)} ms, ${(used.totalCpuMs / Math.max(1, result.confirmed)).toFixed(1)} ms CPU per order\n`,
      );
    }
    return { rows, idle };
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
  const sum = (of: (use: ResourceUse) => number) =>
    rows.reduce((total, row) => total + of(row.used), 0) / Math.max(1, confirmed);
  const services = new Map<string, number>();
  for (const row of rows) {
    for (const [service, ms] of cpuByService(row.used.cpuMs)) {
      services.set(service, (services.get(service) ?? 0) + ms);
    }
  }
  const switchesOf = (named: (name: string) => boolean) =>
    sum((use) =>
      [...use.switches].reduce((total, [name, count]) => total + (named(name) ? count : 0), 0),
    );
  return {
    sagaSwitchesPerOrder: switchesOf((name) => SAGA_SERVICE.test(name)),
    postgresSwitchesPerOrder: switchesOf((name) => name === 'postgres'),
    commitsPerOrder: sum((use) => use.eventStoreCommits),
    roundsPerOrder: sum((use) => use.eventStoreConsumeRounds),
    cpuMsPerOrderByService: new Map(
      [...services].map(([service, ms]) => [service, ms / Math.max(1, confirmed)]),
    ),
    confirmed,
    posted: rows.reduce((sum, row) => sum + row.result.posted, 0),
    cpuMsPerOrder: cpuMs / Math.max(1, confirmed),
    p50s: rows.map((row) => row.result.latency.p50),
    p99s,
    worstP99: Math.max(...p99s),
  };
}

/** A saga service's process, replicas included (payment, payment-2). */
const SAGA_SERVICE = /^(order|inventory|payment|notification)(-\d+)?$/;

const SERVICES_SHOWN = [
  'postgres',
  'order',
  'inventory',
  'payment',
  'notification',
  'gateway',
  'payment-provider',
  'mail-sink',
  'supervisor',
] as const;

function formatSection(
  rows: readonly Row[],
  idle: readonly IdleRow[],
  loadAtStart: number,
): string {
  const lines: string[] = [];
  const breakdown: string[] = [];
  const switches: string[] = [];
  const verdicts: string[] = [];
  const compared = PLAN.variants.length > 1;
  const nameOf = (replicas: Row['replicas'], variant: Variant['name']) =>
    compared ? `${replicas}, ${variant}` : replicas;
  for (const load of PLAN.loads) {
    for (const { name: variant } of PLAN.variants) {
      const of = (replicas: Row['replicas']) =>
        pooled(
          rows.filter(
            (row) =>
              row.replicas === replicas &&
              row.variant === variant &&
              row.result.offeredPerSecond === load.perSecond,
          ),
        );
      const one = of('one each');
      const two = of('two each');
      for (const [replicas, side] of [
        ['one each', one],
        ['two each', two],
      ] as const) {
        const name = nameOf(replicas, variant);
        lines.push(
          `| ${String(load.perSecond)} | ${name} | ${String(side.posted)} | ${String(side.confirmed)} | ${side.cpuMsPerOrder.toFixed(1)} | ${side.commitsPerOrder.toFixed(1)} | ${side.roundsPerOrder.toFixed(1)} | ${side.p50s.map((ms) => ms.toFixed(0)).join(', ')} | ${side.p99s.map((ms) => ms.toFixed(0)).join(', ')} |`,
        );
        const shown = SERVICES_SHOWN.map(
          (service) => side.cpuMsPerOrderByService.get(service) ?? 0,
        );
        const rest = side.cpuMsPerOrder - shown.reduce((total, ms) => total + ms, 0);
        switches.push(
          `| ${String(load.perSecond)} | ${name} | ${side.sagaSwitchesPerOrder.toFixed(0)} | ${side.postgresSwitchesPerOrder.toFixed(0)} |`,
        );
        breakdown.push(
          `| ${String(load.perSecond)} | ${name} | ${[...shown, rest].map((ms) => ms.toFixed(1)).join(' | ')} |`,
        );
      }
      const cpuRatio = two.cpuMsPerOrder / one.cpuMsPerOrder;
      const p99Ratio = two.worstP99 / one.worstP99;
      verdicts.push(
        `At ${String(load.perSecond)}/s${compared ? `, ${variant}` : ''}, two each against one each: CPU per order ${((cpuRatio - 1) * 100).toFixed(0)} %, worst p99 ${((p99Ratio - 1) * 100).toFixed(0)} % (**${cpuRatio <= 1 + WITHIN && p99Ratio <= 1 + WITHIN ? 'within' : 'not within'}** ${String(WITHIN * 100)} %).`,
      );
    }
  }
  return [
    '## Replicas',
    '',
    `Written by \`pnpm bench\` (\`e2e/bench/replicas.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}.`,
    `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${String(availableParallelism())} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${loadAtStart.toFixed(1)} at start.`,
    `The stack as \`pnpm start\` runs it (durable commits, the embedded event store), with one process of each saga service, and with \`STACK_REPLICAS=${TWO_EACH}\`${compared ? `, each with ${PLAN.variants.map((variant) => variant.described).join(' and with ')}` : ''}. They took turns, ${String(PLAN.rounds)} stacks each, each warmed up for ${String(PLAN.warmup.seconds)} s; every row is 15 s of \`tok_approve\` orders on a fixed schedule. CPU: every process of the stack from \`/proc\`, PostgreSQL included, per confirmed order; p50 and p99 are listed per stack, POST to \`OrderConfirmed\`. Event-store commits (\`pg_stat_database\`) and consumer rounds (calls of \`es_consume\`, counted with \`track_functions\`) are read ${String(STATS_SETTLE_MS / 1000)} s after each load, once PostgreSQL's idle backends have reported them, less what the idle stack does in that time.`,
    '',
    '| offered orders/s | saga services | posted | confirmed | CPU per order (ms) | event-store commits per order | consumer rounds per order | p50 (ms) | p99 (ms) |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...lines,
    '',
    ...verdicts,
    '',
    `Where the CPU per order went (ms; a service's replicas summed; "rest" is anything else, 0 unless a process was added):`,
    '',
    `| offered orders/s | saga services | ${SERVICES_SHOWN.join(' | ')} | rest |`,
    `| ---: | --- | ${SERVICES_SHOWN.map(() => '---:').join(' | ')} | ---: |`,
    ...breakdown,
    '',
    "Context switches per order (`/proc/<pid>/status`, voluntary and involuntary: each is a wake-up, whatever it did; the saga services' processes summed, and the PostgreSQL backends alive through the load):",
    '',
    "| offered orders/s | saga services | saga services' switches | PostgreSQL backends' switches |",
    '| ---: | --- | ---: | ---: |',
    ...switches,
    '',
    `Idle, ${String(PLAN.idleSeconds)} s with no orders after the warm-up (what the processes cost by running):`,
    '',
    '| saga services | CPU (ms per second) | event-store commits per second | consumer rounds per second | transaction ids per second (server) | WAL (kB per second, server) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...idle.map(
      (row) =>
        `| ${nameOf(row.replicas, row.variant)} | ${row.cpuMsPerSecond.toFixed(0)} | ${row.commitsPerSecond.toFixed(1)} | ${row.roundsPerSecond.toFixed(1)} | ${row.xidsPerSecond.toFixed(1)} | ${(row.walBytesPerSecond / 1024).toFixed(1)} |`,
    ),
    '',
    "Commits count read-only transactions too (a poll's check is one); transaction ids and WAL count only what writes.",
  ].join('\n');
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? 0;
  const rows: Row[] = [];
  const idle: IdleRow[] = [];
  for (let round = 0; round < PLAN.rounds; round++) {
    for (const variant of PLAN.variants) {
      for (const replicas of ['one each', 'two each'] as const) {
        process.stdout.write(
          `replicas bench, round ${String(round + 1)}: ${replicas}, ${variant.name}\n`,
        );
        const measured = await measureStack(replicas, variant);
        rows.push(...measured.rows);
        idle.push(measured.idle);
      }
    }
  }
  const section = formatSection(rows, idle, loadAtStart);
  process.stdout.write(`${section}\n`);
  if (!process.argv.includes('--no-docs')) {
    await writeBenchmarkSection(BENCHMARKS_FILE, 'replicas', section);
  }
}

await main();
