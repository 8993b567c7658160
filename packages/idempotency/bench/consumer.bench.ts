// `pnpm bench`: messages per second through the idempotent consumer, beside
// the same two statements with no library code, on one server in one run.
// Prints the table and rewrites this benchmark's section of docs/benchmarks.md.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startPostgres, type PostgresServer } from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { createBenchDatabase, verifyEffects } from './bench-database.js';
import { writeBenchSection } from './benchmarks-doc.js';
import { docSection, type RunSettings } from './doc-section.js';
import { batchRunner, libraryRunner } from './library-runners.js';
import { kyselyRunner } from './kysely-runner.js';
import { currentLoad, describeMachine } from './machine.js';
import type { Runner } from './measure.js';
import { pgbenchRunner, pgbenchVersion } from './pgbench-runner.js';
import { rawPgRunner } from './raw-pg-runner.js';
import { consoleReport } from './report.js';
import { summarize, type LevelSamples } from './results.js';
import { formatRate } from './tables.js';

const CONCURRENCIES = [1, 4, 16];
const DOC_FILE = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));

function readSettings(): RunSettings {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '4' } } });
  const seconds = Number(values.seconds);
  if (!Number.isFinite(seconds) || seconds < 1) throw new Error('--seconds must be at least 1.');
  return { warmupMs: 1_000, durationMs: seconds * 1_000, rounds: 3, batchSize: 100 };
}

interface LevelOptions {
  url: string;
  concurrency: number;
  withPgbench: boolean;
  settings: RunSettings;
}

async function openRunners(options: LevelOptions): Promise<Runner[]> {
  const { url, concurrency, withPgbench, settings } = options;
  const runners = [libraryRunner(url, concurrency), rawPgRunner(url, concurrency)];
  if (withPgbench) runners.push(await pgbenchRunner(url, concurrency));
  // Batch mode is compared with single messages at concurrency 1: it takes its
  // turns among them, under the same drift. So does the Kysely-only diagnostic,
  // where one message at a time makes every microsecond of CPU add to latency.
  if (concurrency === 1) {
    runners.push(batchRunner(url, settings.batchSize), kyselyRunner(url, concurrency));
  }
  return runners;
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

async function measureLevel(options: LevelOptions): Promise<LevelSamples> {
  const { concurrency, settings } = options;
  const runners = await openRunners(options);
  const samples: LevelSamples['samples'] = {};
  try {
    for (const runner of runners) await runner.run(settings.warmupMs);
    for (let round = 0; round < settings.rounds; round++) {
      for (const runner of rotate(runners, round)) {
        const sample = await runner.run(settings.durationMs);
        (samples[runner.name] ??= []).push(sample);
        const run = `${String(round + 1)}/${String(settings.rounds)}`;
        console.log(
          `  concurrency ${String(concurrency)}, run ${run}, ${runner.name}: ${formatRate(sample.messagesPerSecond)} msg/s`,
        );
      }
    }
  } finally {
    await Promise.all(runners.map((runner) => runner.close()));
  }
  return { concurrency, samples };
}

async function measureAll(
  url: string,
  settings: RunSettings,
  withPgbench: boolean,
): Promise<LevelSamples[]> {
  const levels: LevelSamples[] = [];
  for (const concurrency of CONCURRENCIES) {
    levels.push(await measureLevel({ url, concurrency, withPgbench, settings }));
  }
  return levels;
}

async function benchOn(server: PostgresServer, settings: RunSettings): Promise<void> {
  const database = await createBenchDatabase(server.adminUrl, Math.max(...CONCURRENCIES));
  try {
    const pgbench = await pgbenchVersion();
    const machine = await describeMachine({
      db: database.admin as Kysely<unknown>,
      pgbench,
      serverIsLocal: server.kind === 'embedded',
    });
    console.log(`PostgreSQL ${machine.postgres} (${server.kind}), ${machine.cpu}`);
    console.log(`pgbench: ${pgbench ?? 'not found on PATH, column left empty'}`);
    const levels = await measureAll(database.url, settings, pgbench !== undefined);
    await verifyEffects(database.admin);
    const summary = summarize(levels, settings.batchSize);
    console.log(`\n${consoleReport(summary)}`);
    await writeBenchSection(
      DOC_FILE,
      docSection({
        date: new Date(),
        settings,
        server: server.kind,
        machine,
        loadAtEnd: currentLoad(),
        levels,
        summary,
      }),
    );
    console.log(`\nWritten to ${DOC_FILE}`);
  } finally {
    await database.drop();
  }
}

const settings = readSettings();
const server = await startPostgres({ durability: 'durable' });
try {
  await benchOn(server, settings);
} finally {
  await server.stop();
}
