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
  type MistakeDemonstration,
  type Scenario,
  type ScenarioRun,
} from '@effectively-once/scenario-runner';
import { findRunningStack, startLabStack, type ConnectedStack } from './stack/connect-lab-stack.js';
import { stackForScenario } from './stack/stack-for-scenario.js';
import { refuse } from '../../../../tooling/command-line/command-line.js';

function usage(): string {
  return [
    'Usage: pnpm scenario <name>... | --all | --list | --help [--json]',
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

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        all: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // An unknown option is the caller's mistake: one line, no stack trace.
    refuse('scenario', error instanceof Error ? error.message : String(error));
  }
}

const { values, positionals } = parseCommandLine();

if (values.list || values.help || (!values.all && positionals.length === 0)) {
  process.stdout.write(`${usage()}\n`);
  process.exit(values.list || values.help ? 0 : 2);
}
const names = values.all
  ? [...SCENARIOS.map((scenario) => scenario.name), ...MISTAKES.map((mistake) => mistake.name)]
  : positionals;
const unknown = names.filter(
  (name) => findScenario(name) === undefined && findMistake(name) === undefined,
);
if (unknown.length > 0) {
  refuse('scenario', `unknown scenario: ${unknown.join(', ')}`);
}

const config = loadRunnerConfig();
const running = findRunningStack(config.stateFile);
if (running !== undefined && !running.faults.enabled) {
  process.stderr.write(
    `The stack at ${config.stateFile} runs without fault injection. Restart it with \`STACK_FAULTS=true pnpm start\`, or stop it and let \`pnpm scenario\` start a lab stack of its own.\n`,
  );
  process.exit(2);
}
// Most scenarios share one stack; one written for settings of its own, or one
// that takes infrastructure away among other runs, gets a stack started for it
// (stack-for-scenario.ts). Your environment wins over a scenario's settings.
let shared: ConnectedStack | undefined;
async function sharedStack(): Promise<ConnectedStack> {
  if (shared !== undefined) return shared;
  shared =
    running === undefined
      ? await startLabStack({ repoRoot: REPO_ROOT, env: config.env })
      : { stack: running, origin: `the running stack (${config.stateFile})`, stop: async () => {} };
  if (!values.json) process.stdout.write(`Running against ${shared.origin}\n`);
  return shared;
}

async function runOnItsStack(
  scenario: Scenario,
  demonstration: MistakeDemonstration | undefined,
): Promise<ScenarioRun> {
  const options = { eventStore: config.eventStore };
  const placement = stackForScenario(scenario, { runs: names.length });
  if (placement.kind === 'shared') {
    return runScenario((await sharedStack()).stack, scenario, demonstration, options);
  }
  const own = await startLabStack({
    repoRoot: REPO_ROOT,
    env: { ...placement.env, ...config.env },
  });
  if (!values.json) {
    process.stdout.write(`Running ${scenario.name} against ${own.origin}: ${placement.why}\n`);
  }
  try {
    return await runScenario(own.stack, scenario, demonstration, options);
  } finally {
    await own.stop();
  }
}

const runs: ScenarioRun[] = [];
try {
  for (const name of names) {
    const demonstration = findMistake(name);
    const scenario = findScenario(demonstration?.scenario ?? name);
    if (scenario === undefined) throw new Error(`No scenario ${name}.`);
    const run = await runOnItsStack(scenario, demonstration);
    runs.push(run);
    if (!values.json) process.stdout.write(`${formatRun(run)}\n`);
  }
} finally {
  await shared?.stop();
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
