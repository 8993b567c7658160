// `pnpm --filter @effectively-once/event-store-postgres bench`: the embedded event store
// against Emmett's PostgreSQL event store, same work, same server, same run.
// Prints the results and writes them into docs/benchmarks.md.
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import {
  connect,
  createDatabase,
  dropDatabase,
  migrateToLatest,
  startPostgres,
} from '@effectively-once/postgres';
import { eventStoreMigrations } from '../src/migrations/index.js';
import type { BenchTarget } from './bench-target.js';
import { embeddedTarget } from './embedded-target.js';
import { emmettTarget } from './emmett-target.js';
import { formatReport, type TargetResults } from './format-report.js';
import { writeSection } from './report.js';
import {
  appendThroughput,
  deliveryLatency,
  deliveryThroughput,
  type LatencyResult,
} from './workloads.js';

const BENCHMARKS_FILE = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
export const PLAN = {
  /** Each throughput workload runs this many times per store, the stores taking turns. */
  rounds: 3,
  single: { total: 2000, batchSize: 1, concurrency: 8 },
  batch10: { total: 10_000, batchSize: 10, concurrency: 8 },
  batch100: { total: 20_000, batchSize: 100, concurrency: 4 },
  deliveries: 5000,
  latency: [
    { perSecond: 50, seconds: 10 },
    { perSecond: 200, seconds: 10 },
  ],
} as const;

async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  await dropDatabase(adminUrl, name);
  return createDatabase(adminUrl, name);
}

/**
 * Runs `work` `PLAN.rounds` times per target, the targets taking turns, so a
 * slow spell of the machine (disk flushes, a neighbour) hits both alike.
 */
async function interleaved<T>(
  targets: readonly BenchTarget[],
  what: string,
  work: (target: BenchTarget) => Promise<T>,
) {
  const results = targets.map((): T[] => []);
  for (let round = 1; round <= PLAN.rounds; round++) {
    process.stdout.write(`  ${what}, round ${String(round)} of ${String(PLAN.rounds)}\n`);
    for (const [index, target] of targets.entries()) results[index]?.push(await work(target));
  }
  return results;
}

type Open = () => Promise<BenchTarget>;

/** Appends: the stores take turns, round after round, both open. */
async function measureAppends(opens: readonly Open[]) {
  const targets = await Promise.all(opens.map((open) => open()));
  try {
    const run = (what: string, plan: { total: number; batchSize: number; concurrency: number }) =>
      interleaved(targets, what, (target) => appendThroughput(target, plan));
    return {
      single: await run('single-event appends', PLAN.single),
      batch10: await run('batches of 10', PLAN.batch10),
      batch100: await run('batches of 100', PLAN.batch100),
    };
  } finally {
    for (const target of targets) await target.close();
  }
}

/**
 * Writes every page the earlier phases dirtied, so that a latency run does not
 * pay for their write-back: a checkpoint that starts during one makes the WAL
 * flushes of its commits, and so its tail, depend on what ran before it.
 */
async function checkpoint(adminUrl: string): Promise<void> {
  const db = connect<unknown>(adminUrl, { maxConnections: 1 });
  try {
    await sql`CHECKPOINT`.execute(db);
  } finally {
    await db.destroy();
  }
}

/**
 * Subscriptions: one store at a time, alone on the server, so that one's
 * consumers (and whatever they leave behind) cannot slow the other's.
 */
async function measureSubscriptions(open: Open, adminUrl: string) {
  const target = await open();
  try {
    const deliveries = [];
    for (let round = 1; round <= PLAN.rounds; round++) {
      process.stdout.write(`  ${target.name}: delivery throughput, round ${String(round)}\n`);
      deliveries.push(await deliveryThroughput(target, PLAN.deliveries));
    }
    const latency: LatencyResult[] = [];
    for (const load of PLAN.latency) {
      process.stdout.write(`  ${target.name}: latency at ${String(load.perSecond)} events/s\n`);
      await checkpoint(adminUrl);
      latency.push(await deliveryLatency(target, load));
    }
    return { name: target.name, deliveries, latency };
  } finally {
    await target.close();
  }
}

async function measure(opens: readonly Open[], adminUrl: string): Promise<TargetResults[]> {
  const appends = await measureAppends(opens);
  const results: TargetResults[] = [];
  for (const [index, open] of opens.entries()) {
    const subscriptions = await measureSubscriptions(open, adminUrl);
    results.push({
      ...subscriptions,
      single: appends.single[index] ?? [],
      batch10: appends.batch10[index] ?? [],
      batch100: appends.batch100[index] ?? [],
    });
  }
  return results;
}

async function serverVersion(url: string): Promise<string> {
  const db = connect<unknown>(url, { maxConnections: 1 });
  try {
    const { rows } = await sql<{ server_version: string }>`SHOW server_version`.execute(db);
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const server = await startPostgres({ durability: 'durable' });
  try {
    const embeddedUrl = await freshDatabase(server.adminUrl, 'bench_event_store_embedded');
    const emmettUrl = await freshDatabase(server.adminUrl, 'bench_event_store_emmett');
    const migrator = connect<unknown>(embeddedUrl, { maxConnections: 1 });
    await migrateToLatest(migrator, eventStoreMigrations);
    await migrator.destroy();

    const results = await measure(
      [() => Promise.resolve(embeddedTarget(embeddedUrl)), () => emmettTarget(emmettUrl)],
      server.adminUrl,
    );
    const report = formatReport({
      results,
      plan: PLAN,
      machine: `${String(cpus().length)} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, PostgreSQL ${await serverVersion(embeddedUrl)} (${server.kind}, durable: fsync on)`,
      date: new Date().toISOString().slice(0, 10),
    });
    process.stdout.write(`\n${report}\n`);
    await writeSection(BENCHMARKS_FILE, report);
    process.stdout.write(`\nWritten to ${BENCHMARKS_FILE}\n`);
  } catch (error) {
    // Printed before the server stops: stopping it makes open pools fail
    // too, and their errors must not hide the first one.
    console.error('The benchmark failed:', error);
    process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
