// `pnpm scenario <name>...`, `pnpm scenario --all`, `pnpm scenario --list`.
// Runs against the lab stack `STACK_FAULTS=true pnpm start` is running, or
// starts one of its own. Exits 1 when a run did not end as it should: an
// invariant broke that must hold, or a mistake failed to break its invariant.
import { parseArgs } from 'node:util';
import { REPO_ROOT, loadRunnerConfig } from './config.js';
import {
  MISTAKES,
  SCENARIOS,
  findMistake,
  findScenario,
  formatRun,
  runScenario,
  type ScenarioRun,
} from '@effectively-once/scenario-runner';
import { findRunningStack, startLabStack, type ConnectedStack } from './stack/connect-lab-stack.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    all: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

function usage(): string {
  return [
    'Usage: pnpm scenario <name>... | --all | --list [--json]',
    '',
    'Scenarios:',
    ...SCENARIOS.map((scenario) => `  ${scenario.name.padEnd(34)} ${scenario.title}`),
    '',
    'Common mistakes (each breaks its scenario on purpose):',
    ...MISTAKES.map(
      (mistake) => `  ${mistake.name.padEnd(34)} ${mistake.mistake} in ${mistake.scenario}`,
    ),
  ].join('\n');
}

if (values.list || (!values.all && positionals.length === 0)) {
  process.stdout.write(`${usage()}\n`);
  process.exit(values.list ? 0 : 2);
}
const names = values.all
  ? [...SCENARIOS.map((scenario) => scenario.name), ...MISTAKES.map((mistake) => mistake.name)]
  : positionals;
const unknown = names.filter(
  (name) => findScenario(name) === undefined && findMistake(name) === undefined,
);
if (unknown.length > 0) {
  process.stderr.write(`Unknown scenario: ${unknown.join(', ')}\n\n${usage()}\n`);
  process.exit(2);
}

const config = loadRunnerConfig();
const running = findRunningStack(config.stateFile);
if (running !== undefined && !running.faults.enabled) {
  process.stderr.write(
    `The stack at ${config.stateFile} runs without fault injection. Restart it with \`STACK_FAULTS=true pnpm start\`, or stop it and let \`pnpm scenario\` start a lab stack of its own.\n`,
  );
  process.exit(2);
}
// A stack started for one scenario gets the settings it is written for; your
// environment still wins, and a stack for several runs stays as configured.
const sole = names.length === 1 ? findScenario(names[0] ?? '') : undefined;
const connected: ConnectedStack =
  running === undefined
    ? await startLabStack({ repoRoot: REPO_ROOT, env: { ...sole?.stackEnv, ...config.env } })
    : { stack: running, origin: `the running stack (${config.stateFile})`, stop: async () => {} };
if (!values.json) process.stdout.write(`Running against ${connected.origin}\n`);

const runs: ScenarioRun[] = [];
try {
  for (const name of names) {
    const demonstration = findMistake(name);
    const scenario = findScenario(demonstration?.scenario ?? name);
    if (scenario === undefined) throw new Error(`No scenario ${name}.`);
    const run = await runScenario(connected.stack, scenario, demonstration, {
      eventStore: config.eventStore,
    });
    runs.push(run);
    if (!values.json) process.stdout.write(`${formatRun(run)}\n`);
  }
} finally {
  await connected.stop();
}
const failed = runs.filter((run) => !run.verdict.passed);
if (values.json) {
  process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
} else {
  process.stdout.write(
    `\n${String(runs.length - failed.length)} of ${String(runs.length)} runs ended as they should${failed.length > 0 ? `; failed: ${failed.map((run) => run.name).join(', ')}` : ''}.\n`,
  );
}
// exitCode, not exit(): a large --json answer piped elsewhere must be written out first.
process.exitCode = failed.length > 0 ? 1 : 0;
