// `pnpm bench` (e2e package), startup: how long `pnpm start` takes from spawn
// until `GET /api/health` answers 200, which since issue 13 also means the demo
// stock is in and an order placed then is confirmed. The stack as `pnpm start`
// runs it (console on, embedded PostgreSQL with a fresh cluster, durable
// commits), on free ports; each start is stopped before the next one.
//
// Rows: the precompiled bundles (the default) and tsx (STACK_RUNTIME=tsx), the
// first start of each "cold" (bundles: built into an empty folder; tsx: with
// its transform cache off), then warm (bundles: reused from that folder).
// `--tracing=on,off` adds, for each runtime, starts with the OpenTelemetry SDK
// off (OTEL_SDK_DISABLED=true) beside the traced ones `pnpm start` makes (the
// default is `on` alone), alternating, so tracing's share of the start is
// measured on the same machine minute (docs/observability.md#what-tracing-costs).
// `node --import tsx bench/startup.bench.ts --no-write [--only=tsx] [--tracing=on,off]` prints without writing.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '@effectively-once/postgres';
import { StackReadyMessage } from '@effectively-once/stack-protocol';
import { writeBenchmarkSection } from '../../tooling/benchmarks-doc.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BENCHMARKS_FILE = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
const WARM_RUNS = 3;
const TARGET_MS = 6_000;
const POLL_MS = 20;

type Runtime = 'bundle' | 'tsx';
type Tracing = 'on' | 'off';

interface StartRun {
  runtime: Runtime;
  tracing: Tracing;
  cold: boolean;
  /** Spawn of the supervisor to the first 200 of GET /api/health. */
  healthMs: number;
  /** Spawn to the supervisor's "ready" IPC message. */
  readyMs: number;
  /** What the supervisor measured of its own start (absent before issue 13). */
  phasesMs: Record<string, number>;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** One `pnpm start` (`node apps/supervisor/launch.mjs`), until health 200 and "ready". */
async function startOnce(
  { runtime, tracing, cold }: Pick<StartRun, 'runtime' | 'tracing' | 'cold'>,
  bundleDir: string,
): Promise<StartRun> {
  const port = await findFreePort();
  const runId = randomBytes(4).toString('hex');
  const stateFile = path.join(tmpdir(), `eo-startup-bench-${runId}.json`);
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['apps/supervisor/launch.mjs'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      STACK_PORTS: 'auto',
      STACK_DATABASE_PREFIX: `eo_bench_${runId}_`,
      STACK_STATE_FILE: stateFile,
      // lab:begin
      STACK_CONSOLE: 'true',
      STACK_FAULTS: 'false',
      // lab:end
      STACK_RUNTIME: runtime,
      STACK_BUNDLE_DIR: bundleDir,
      ...(cold && runtime === 'tsx' ? { TSX_DISABLE_CACHE: '1' } : {}),
      ...(tracing === 'off' ? { OTEL_SDK_DISABLED: 'true' } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = new Promise<{ at: number; message: StackReadyMessage }>((resolve) => {
    child.on('message', (message) => {
      const parsed = StackReadyMessage.safeParse(message);
      if (parsed.success) resolve({ at: performance.now(), message: parsed.data });
    });
  });
  try {
    const deadline = startedAt + 120_000;
    while (!(await healthy(`http://127.0.0.1:${String(port)}/api/health`))) {
      if (performance.now() > deadline || child.exitCode !== null) {
        throw new Error(`${runtime}: no healthy stack within 120 s`);
      }
      await sleep(POLL_MS);
    }
    const healthMs = performance.now() - startedAt;
    const { at, message } = await ready;
    return {
      runtime,
      tracing,
      cold,
      healthMs,
      readyMs: at - startedAt,
      phasesMs: message.phasesMs ?? {},
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(stateFile, { force: true });
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function formatSection(runs: readonly StartRun[], load: number): string {
  const phaseNames = [...new Set(runs.flatMap((run) => Object.keys(run.phasesMs)))];
  const warmMedian = (runtime: Runtime, tracing: Tracing): string =>
    seconds(
      median(
        runs
          .filter((run) => run.runtime === runtime && run.tracing === tracing && !run.cold)
          .map((run) => run.healthMs),
      ),
    );
  const warmBundle = runs.filter(
    (run) => run.runtime === 'bundle' && run.tracing === 'on' && !run.cold,
  );
  const verdict = median(warmBundle.map((run) => run.healthMs)) <= TARGET_MS ? 'met' : 'missed';
  const kinds = [...new Set(runs.map((run) => `${run.runtime} ${run.tracing}`))];
  const phaseCells = (run: StartRun): string =>
    phaseNames
      .map((name) => ` ${run.phasesMs[name] === undefined ? '-' : seconds(run.phasesMs[name])} |`)
      .join('');
  return [
    '## Startup (`pnpm start`)',
    '',
    `Written by \`pnpm bench\` (\`e2e/bench/startup.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}.`,
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${String(availableParallelism())} cores, ${String(Math.round(totalmem() / 2 ** 30))} GiB, Node ${process.version}; load average ${load.toFixed(1)} at start.`,
    'The stack as `pnpm start` runs it: embedded PostgreSQL (a fresh cluster each start, durable commits), the console on, eight Node.js processes.',
    '`health 200`: from spawning the supervisor to the first 200 of `GET /api/health` (polled every 20 ms), which answers 200 only once the demo stock is in and every consumer is subscribed. `ready`: to the supervisor\'s "ready" message. The phases are the supervisor\'s own clock, from its first line of code, after it loaded its modules (from its bundle when the last build is current, else through tsx); they overlap: the bundles are built while PostgreSQL starts.',
    "`bundle`: each process runs an esbuild bundle the supervisor builds at start (the default, ADR 0013); `tsx`: each process transforms its TypeScript at load (`STACK_RUNTIME=tsx`). Cold: the first start of its kind in the run (bundles built into an empty folder; tsx with its transform cache off); warm: the bundles reused, tsx's cache on.",
    '',
    '`tracing`: `on` as `pnpm start` runs (spans exported to the console), `off` with `OTEL_SDK_DISABLED=true`.',
    '',
    `| runtime | tracing | start | health 200 | ready |${phaseNames.map((name) => ` ${name} |`).join('')}`,
    `| --- | --- | --- | ---: | ---: |${phaseNames.map(() => ' ---: |').join('')}`,
    ...runs.map(
      (run) =>
        `| ${run.runtime} | ${run.tracing} | ${run.cold ? 'cold' : 'warm'} | ${seconds(run.healthMs)} | ${seconds(run.readyMs)} |${phaseCells(run)}`,
    ),
    '',
    `Warm medians: ${kinds.map((kind) => `\`${kind}\` ${warmMedian(...(kind.split(' ') as [Runtime, Tracing]))}`).join(', ')}.`,
    `Target: health 200 within ${seconds(TARGET_MS)} on a warm install (median of the warm \`bundle\` starts, tracing on): **${verdict}** in this run.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const load = loadavg()[0] ?? 0;
  const runs: StartRun[] = [];
  const bundleDir = await mkdtemp(path.join(tmpdir(), 'eo-startup-bench-bundles-'));
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  const runtimes = (['bundle', 'tsx'] as const).filter(
    (runtime) => only === undefined || runtime === only,
  );
  const tracingArg = process.argv.find((arg) => arg.startsWith('--tracing='));
  const tracings = (tracingArg?.slice('--tracing='.length) ?? 'on').split(',').map((mode) => {
    if (mode !== 'on' && mode !== 'off')
      throw new Error(`--tracing takes on and/or off, not "${mode}"`);
    return mode;
  });
  // Alternating, so all see the same machine: on a shared one its load moves by the minute.
  // The first start of each runtime is its cold one, whichever tracing it has.
  for (let index = 0; index <= WARM_RUNS; index++) {
    for (const runtime of runtimes) {
      for (const [position, tracing] of tracings.entries()) {
        const cold = index === 0 && position === 0;
        const run = await startOnce({ runtime, tracing, cold }, bundleDir);
        process.stdout.write(
          `  ${runtime} tracing ${tracing} ${run.cold ? 'cold' : 'warm'}: health ${seconds(run.healthMs)}, ready ${seconds(run.readyMs)} ${JSON.stringify(run.phasesMs)}\n`,
        );
        runs.push(run);
      }
    }
  }
  runs.sort((a, b) => a.runtime.localeCompare(b.runtime) || a.tracing.localeCompare(b.tracing));
  await rm(bundleDir, { recursive: true, force: true });
  const section = formatSection(runs, load);
  process.stdout.write(`${section}\n`);
  if (!process.argv.includes('--no-write')) {
    await writeBenchmarkSection(BENCHMARKS_FILE, 'startup', section);
  }
}

await main();
