// The Markdown section this benchmark owns in docs/benchmarks.md.
import type { MachineDescription } from './machine.js';
import type { LevelSamples, Summary } from './results.js';
import { batchLine, breakdownLine, cpuTable, missNotes, throughputTable } from './report.js';
import { formatRate, markdownTable } from './tables.js';
import type { RunnerName } from './workload.js';

export interface RunSettings {
  warmupMs: number;
  durationMs: number;
  rounds: number;
  batchSize: number;
}

export interface BenchRun {
  date: Date;
  settings: RunSettings;
  server: 'embedded' | 'external';
  machine: MachineDescription;
  /** One-minute load average when the run ended. */
  loadAtEnd: number;
  levels: readonly LevelSamples[];
  summary: Summary;
}

const ABOUT = `Messages per second through the idempotent consumer, with the unit of work of
the pattern: the claim (\`INSERT INTO processed_message ... ON CONFLICT DO NOTHING
RETURNING message_id\`) and the inventory update (\`UPDATE inventory SET available =
available - q, reserved = reserved + q WHERE sku = $1 AND available >= q\`), committed
together in one transaction per message. Every message has a fresh id, so every claim
wins; each concurrent worker reserves from its own SKU, so row locks never serialize
the workers.

- **library**: \`processOnce\` with \`defineConsumer({ name: 'bench-consumer-v1' })\` on a
  Kysely pool from \`connect\`, as large as the concurrency. Its work sends the raw path's
  exact update text and parameters (\`trx.executeQuery(CompiledQuery.raw(...))\`). \`connect\`
  sends a transaction's \`BEGIN\` in the same round trip as its first statement (ADR 0014), so
  a message costs three round trips: \`BEGIN\` + claim, the update, \`COMMIT\`; and it prepares
  each statement with parameters once per connection (ADR 0029).
- **raw pg**: the same two statements between \`BEGIN\` and \`COMMIT\` on a plain
  \`pg.Pool\` of the same size, with no library code: four round trips, one statement each,
  as named prepared statements like the library's. The 85% target is measured against this
  loop (same driver, same process), so the ratio shows what the library costs, or saves.
- **pgbench**: the same four statements as a pgbench custom script at the same client counts:
  four round trips, prepared protocol (each statement parsed and planned once per
  connection, as the Node paths do), \`gen_random_uuid()\` ids, one SKU per client. It is the server's ceiling with no
  Node process at all. Issue 13 asks the library for 75% of it at one client and 65% at 4
  and 16 (the "of pgbench" column); the rest of the gap is the CPU that Node and
  node-postgres take from a machine the server shares.
- **batch**: \`processBatchOnce\` with messages claimed by one statement, applied by one
  \`UPDATE ... FROM unnest(...)\` and committed in one transaction, each message with its
  own outcome; concurrency 1, compared with the library's single-message throughput at
  concurrency 1.
- **kysely** (diagnostic, concurrency 1): the raw path's statements in a Kysely
  transaction from \`connect\` (so \`BEGIN\` rides with the claim here too) without
  \`processOnce\`, to tell the cost of Kysely from the cost of
  \`processOnce\` itself.`;

const HOW_TO_RUN = `\`\`\`sh
pnpm bench                      # from the repository root or packages/idempotency
DATABASE_URL=postgres://user:pass@host:5432/postgres pnpm bench
\`\`\`

Without \`DATABASE_URL\` it starts an embedded PostgreSQL with durable settings
(\`startPostgres({ durability: 'durable' })\`); with it, it uses that server, where it
creates a fresh database and drops it at the end. \`pnpm bench --seconds 2\` shortens each
measured run (default 4 s). Each run rewrites this section.`;

function method(settings: RunSettings): string {
  const { warmupMs, rounds, durationMs, batchSize } = settings;
  return [
    `Each path at each concurrency: ${String(warmupMs / 1000)} s of warm-up, then ${String(rounds)} runs`,
    `of ${String(durationMs / 1000)} s each; the tables show the median. Within a concurrency the paths`,
    'take turns in rotating order, so drift during the run (a growing marker table,',
    `checkpoints, other load on the machine) falls on all of them alike. Batches hold ${String(batchSize)}`,
    'messages. After the runs the bench checks that every counted message left its marker and',
    'moved its stock.',
  ].join('\n');
}

function machineTable({ machine, server, loadAtEnd }: BenchRun): string {
  const load = `${machine.loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end`;
  const rows: [string, string][] = [
    ['CPU', `${machine.cpu}, ${String(machine.cores)} cores`],
    ['Memory', `${String(machine.memoryGiB)} GiB`],
    ['OS', machine.os],
    ['Node', machine.node],
    ['PostgreSQL', `${machine.postgres} (${server})`],
    ...Object.entries(machine.settings).map(([name, value]): [string, string] => [name, value]),
    ['Data directory on', machine.dataFileSystem ?? 'not visible from this machine'],
    ['pgbench', machine.pgbench ?? 'not installed'],
    ['Load average (1 min)', load],
  ];
  return markdownTable(['Setting', 'Value'], rows, { numbers: false });
}

function samplesTable(levels: readonly LevelSamples[]): string {
  const runners: RunnerName[] = ['library', 'raw-pg', 'pgbench', 'batch', 'kysely'];
  const rows = levels.flatMap(({ concurrency, samples }) =>
    runners.flatMap((runner) => {
      const runs = samples[runner];
      if (runs === undefined) return [];
      const rates = runs.map((s) => formatRate(s.messagesPerSecond)).join(', ');
      return [[`${String(concurrency)} / ${runner}`, rates]];
    }),
  );
  return markdownTable(['concurrency / path', 'msg/s of each run'], rows);
}

export function docSection(run: BenchRun): string {
  const notes = missNotes(run.summary);
  return [
    '## Idempotent consumer (`packages/idempotency`)',
    `Written by \`pnpm bench\` (\`packages/idempotency/bench/\`) on ${run.date.toISOString()}; do not edit by hand.`,
    ABOUT,
    '### How to run',
    HOW_TO_RUN,
    '### Machine',
    machineTable(run),
    '### Results',
    method(run.settings),
    throughputTable(run.summary, markdownTable),
    batchLine(run.summary),
    notes.length === 0 ? 'All targets met.' : notes.map((note) => `- ${note}`).join('\n'),
    breakdownLine(run.summary),
    'CPU of the benchmark process per message (median of the runs), to show where time goes:',
    cpuTable(run.summary, markdownTable),
    'Every run:',
    samplesTable(run.levels),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
