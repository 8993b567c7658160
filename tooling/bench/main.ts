// `pnpm bench`: every package's benchmarks, one package at a time (they would
// share the machine's cores otherwise). Each writes its section of
// docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { parseCommandLine } from '../command-line/command-line.js';

parseCommandLine({
  name: 'bench',
  usage: `usage: pnpm bench

Runs every package's benchmarks one package at a time (the saga, replicas,
flow-control and start-up benches, the consumer and outbox benches) and writes
their sections of docs/benchmarks.md. It takes tens of minutes; run it on a
machine with nothing else to do. One bench alone, for example:
  pnpm --filter @effectively-once/e2e exec node --import tsx bench/saga.bench.ts --no-docs`,
});

const run = spawnSync(
  'pnpm',
  ['--recursive', '--workspace-concurrency=1', '--if-present', 'run', 'bench'],
  { stdio: 'inherit' },
);
process.exitCode = run.status ?? 1;
