// `pnpm --filter @effectively-once/outbox bench [relay module …]`: how long a
// committed outbox row waits until its event is in the store, and how many
// round trips the relay spends per row. Pass several relay modules (another
// checkout's src/outbox-relay.ts) to compare them in one run, taking turns.
import { randomUUID } from 'node:crypto';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import {
  connect,
  createDatabase,
  dropDatabase,
  migrateToLatest,
  startPostgres,
} from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { enqueueEvents } from '../src/enqueue-events.js';
import { outboxMigrations } from '../src/migrations/index.js';
import type { OutboxTables } from '../src/outbox.table.js';
import type * as Relay from '../src/outbox-relay.js';
import { countRoundTrips } from './round-trips.js';

type RelayModule = typeof Relay;
const PLAN = {
  rounds: 3,
  steady: { perSecond: 40, seconds: 5 },
  burst: { rows: 600, writers: 8, streams: 60 },
} as const;
const WRITER = 'bench-writer';
const trips = countRoundTrips();

async function migrated(adminUrl: string, name: string, migrations: typeof outboxMigrations) {
  await dropDatabase(adminUrl, name);
  const url = await createDatabase(adminUrl, name);
  const db = connect<unknown>(url, { maxConnections: 1 });
  await migrateToLatest(db, migrations);
  await db.destroy();
  return url;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Commits one row per call; `committed` maps event id to the time its transaction returned. */
function writer(db: Kysely<OutboxTables>, committed: Map<string, number>) {
  return async (streamName: string) => {
    const [id = ''] = await db
      .transaction()
      .execute((trx) => enqueueEvents(trx, [{ streamName, type: 'Benched', data: {} }]));
    committed.set(id, performance.now());
  };
}

interface Run {
  latencies: number[];
  rows: number;
  relayTrips: number;
  wallMs: number;
  cpuMs: number;
}

/** Starts a relay, runs `write`, waits until every row written is appended, closes the relay. */
async function measure(
  input: { module: RelayModule; serviceUrl: string; storeUrl: string },
  write: (commit: (stream: string) => Promise<void>) => Promise<number>,
): Promise<Run> {
  const writerDb = connect<OutboxTables>(input.serviceUrl, { applicationName: WRITER });
  const relayDb = connect<OutboxTables>(input.serviceUrl, { applicationName: 'bench-relay' });
  const store = createPostgresEventStore({ url: input.storeUrl });
  const committed = new Map<string, number>();
  const appended = new Map<string, number>();
  const relay = input.module.startOutboxRelay({
    db: relayDb,
    store,
    databaseUrl: input.serviceUrl,
    log: { info: () => undefined, warn: console.warn, error: console.error },
    afterAppend: (row) => {
      appended.set(row.eventId, performance.now());
      return Promise.resolve();
    },
  });
  await relay.flush();
  const [mark, cpu, started] = [trips.mark(), process.cpuUsage(), performance.now()];
  const rows = await write(writer(writerDb, committed));
  while (appended.size < rows) await sleep(5);
  const wallMs = performance.now() - started;
  const cpuUsed = process.cpuUsage(cpu);
  const relayTrips = Object.entries(trips.since(mark))
    .filter(([name]) => name !== WRITER)
    .reduce((sum, [, n]) => sum + n, 0);
  await relay.close();
  await Promise.all([store.close(), writerDb.destroy(), relayDb.destroy()]);
  const latencies = [...committed].map(([id, at]) => (appended.get(id) ?? NaN) - at);
  return {
    latencies: latencies.sort((a, b) => a - b),
    rows,
    relayTrips,
    wallMs,
    cpuMs: (cpuUsed.user + cpuUsed.system) / 1000,
  };
}

/** One row per transaction, each on a stream of its own, at a steady rate: a service at work. */
async function steady(commit: (stream: string) => Promise<void>) {
  const { perSecond, seconds } = PLAN.steady;
  const writes: Promise<void>[] = [];
  for (let i = 0; i < perSecond * seconds; i++) {
    writes.push(commit(`bench-${randomUUID()}`));
    await sleep(1000 / perSecond);
  }
  await Promise.all(writes);
  return writes.length;
}

/** Concurrent writers over a few streams: a backlog, as after an outage. */
async function burst(commit: (stream: string) => Promise<void>) {
  const { rows, writers, streams } = PLAN.burst;
  const names = Array.from({ length: streams }, () => `bench-${randomUUID()}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < rows) await commit(names[next++ % streams] ?? '');
    }),
  );
  return rows;
}

const fmt = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(1));
function report(label: string, runs: readonly Run[]) {
  const all = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  const rows = runs.reduce((sum, run) => sum + run.rows, 0);
  const sum = (pick: (run: Run) => number) => runs.reduce((total, run) => total + pick(run), 0);
  process.stdout.write(
    `${label}: commit→appended p50 ${fmt(percentile(all, 50))} ms, p95 ${fmt(percentile(all, 95))} ms, p99 ${fmt(percentile(all, 99))} ms; ` +
      `relay round trips/row ${fmt(sum((r) => r.relayTrips) / rows)}; rows/s ${fmt((rows * 1000) / sum((r) => r.wallMs))}; process CPU/row ${fmt(sum((r) => r.cpuMs) / rows)} ms\n`,
  );
}

async function main(): Promise<void> {
  const paths = process.argv.slice(2);
  const modules: [string, RelayModule][] = await Promise.all(
    (paths.length > 0 ? paths : ['../src/outbox-relay.ts']).map(
      async (path) => [path, (await import(path)) as RelayModule] as [string, RelayModule],
    ),
  );
  const server = await startPostgres({ durability: 'durable' });
  try {
    const serviceUrl = await migrated(server.adminUrl, 'bench_outbox_service', outboxMigrations);
    const storeUrl = await migrated(server.adminUrl, 'bench_outbox_store', eventStoreMigrations);
    for (const [name, workload] of [
      ['steady', steady],
      ['burst', burst],
    ] as const) {
      const runs = modules.map((): Run[] => []);
      for (let round = 1; round <= PLAN.rounds; round++) {
        for (const [index, [, module]] of modules.entries()) {
          runs[index]?.push(await measure({ module, serviceUrl, storeUrl }, workload));
        }
      }
      for (const [index, [path]] of modules.entries()) report(`${name} ${path}`, runs[index] ?? []);
    }
  } finally {
    await server.stop();
  }
}

await main();
