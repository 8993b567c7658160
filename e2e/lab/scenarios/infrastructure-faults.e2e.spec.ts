// The scenarios that take infrastructure away under the stack: PostgreSQL
// sessions, settings and the server itself, the card processor and the SMTP
// sink. They run here, on a lab stack of their own with its own embedded
// PostgreSQL server (DATABASE_URL emptied: a restart must never stop a server
// other stacks share), one after another, with outages shortened to seconds.
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_RUN_OPTIONS,
  findScenario,
  formatRun,
  postgresRestart,
  providerDown,
  runScenario,
  smtpDown,
  type LabStack,
  type Scenario,
  type ScenarioRun,
} from '@effectively-once/scenario-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../support/start-stack.js';

let running: RunningStack;
let lab: LabStack;

beforeAll(async () => {
  const token = randomBytes(16).toString('hex');
  running = await startStack({
    env: { STACK_FAULTS: 'true', FAULTS_TOKEN: token, ADMIN_TOKEN: token, DATABASE_URL: '' },
  });
  lab = {
    gatewayUrl: running.gatewayUrl,
    ports: running.ports,
    databases: running.databases,
    faults: { enabled: true, token },
    adminToken: token,
  };
});

afterAll(async () => {
  await running.stop();
});

function explain(run: ScenarioRun): string {
  return run.verdict.passed ? '' : formatRun(run);
}

function named(name: string): Scenario {
  const scenario = findScenario(name);
  if (scenario === undefined) throw new Error(`No scenario ${name}.`);
  return scenario;
}

async function expectPass(scenario: Scenario): Promise<void> {
  const run = await runScenario(lab, scenario, undefined, DEFAULT_RUN_OPTIONS);
  expect(run.error, explain(run)).toBeUndefined();
  expect(
    run.verdict.report.checks.filter((check) => check.status !== 'held').map((c) => c.name),
    explain(run),
  ).toEqual([]);
  expect(
    run.verdict.expectations.filter((expectation) => !expectation.held).map((e) => e.description),
    explain(run),
  ).toEqual([]);
  expect(run.verdict.expectations.length, explain(run)).toBeGreaterThan(0);
}

describe('infrastructure faults: every order ends, each effect once, nothing lost', () => {
  it('backend-terminated', { timeout: 120_000 }, () => expectPass(named('backend-terminated')));
  it('low-db-timeouts', { timeout: 120_000 }, () => expectPass(named('low-db-timeouts')));
  // The named scenarios keep the processes down a minute; seconds show the same here.
  it('provider-down, 5 s', { timeout: 120_000 }, () => expectPass(providerDown({ downMs: 5_000 })));
  it('smtp-down, 5 s', { timeout: 120_000 }, () => expectPass(smtpDown({ downMs: 5_000 })));
  it('postgres-restart, 4 s', { timeout: 120_000 }, () =>
    expectPass(postgresRestart({ downMs: 4_000 })),
  );
});
