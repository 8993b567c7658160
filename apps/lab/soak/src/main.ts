// `pnpm soak`: the long campaign (1,000 orders by default) against a lab stack
// of its own; prints the report and writes it to docs/soak.md. Exits 1 when
// the soak is not green, 2 on a usage error. `--seed` replays a campaign.
import { availableParallelism, cpus, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeBenchmarkSection } from '../../../../tooling/benchmarks-doc.js';
import { REPO_ROOT, stackEnvironment } from './config.js';
import { faultInjectors } from './faults/fault-kinds.js';
import { formatSoakReport, soakFailures } from './report/soak-result.js';
import { runSoak } from './run-soak.js';
import { parseSoakArgs, SOAK_USAGE } from './soak-args.js';
import { refuse } from '../../../../tooling/command-line/command-line.js';

/** An unknown option is the caller's mistake: one line, no stack trace. */
function parsedOrRefused<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    return refuse('soak', error instanceof Error ? error.message : String(error));
  }
}

const parsed = parseSoakArgs(
  parsedOrRefused(
    () =>
      parseArgs({
        args: process.argv.slice(2).filter((arg) => arg !== '--'),
        options: {
          seed: { type: 'string' },
          orders: { type: 'string' },
          rate: { type: 'string' },
          'fault-every': { type: 'string' },
          short: { type: 'boolean', default: false },
          'no-docs': { type: 'boolean', default: false },
          help: { type: 'boolean', default: false },
        },
      }).values,
  ),
);
if (parsed.kind === 'help') {
  process.stdout.write(SOAK_USAGE);
  process.exit(0);
}
if (parsed.kind === 'error') refuse('soak', parsed.message);
const { options } = parsed;
const say = (line: string) =>
  void process.stdout.write(`[soak +${String(Math.round(performance.now() / 1000))}s] ${line}\n`);
say(`seed ${String(options.seed)} (replay with --seed ${String(options.seed)})`);
const result = await runSoak({
  ...options,
  injectors: faultInjectors(),
  repoRoot: REPO_ROOT,
  env: stackEnvironment(),
  log: say,
});
const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${String(availableParallelism())} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const report = formatSoakReport(result, machine);
process.stdout.write(`\n${report}`);
if (options.writeDocs) {
  await writeBenchmarkSection(path.join(REPO_ROOT, 'docs', 'soak.md'), 'soak', report);
  say('written to docs/soak.md');
}
process.exitCode = soakFailures(result).length === 0 ? 0 : 1;
