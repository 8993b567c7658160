// Every failure scenario and every common-mistake demonstration, run against
// one lab stack (the supervisor with STACK_FAULTS=true: real processes, real
// SIGKILLs, real PostgreSQL). A scenario passes when every invariant holds
// and its own expectations do; a mistake passes when it breaks the invariant
// it predicts. The timeline is printed when a run fails.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_RUN_OPTIONS,
  MISTAKES,
  SCENARIOS,
  findScenario,
  formatRun,
  runScenario,
  type LabStack,
  type ScenarioRun,
} from '@effectively-once/scenario-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../support/start-stack.js';

let running: RunningStack;
let lab: LabStack;

beforeAll(async () => {
  const token = randomBytes(16).toString('hex');
  running = await startStack({
    env: { STACK_FAULTS: 'true', FAULTS_TOKEN: token, ADMIN_TOKEN: token },
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

/**
 * Scenarios `pnpm test` leaves to `pnpm scenario <name>` and `pnpm scenario
 * --all`, each because an integration test proves the same thing against a
 * real PostgreSQL and a real SMTP server in a fraction of the time. The test
 * below keeps every entry honest: the named test must exist.
 */
const PROVEN_BY_AN_INTEGRATION_TEST: Readonly<Record<string, { file: string; test: string }>> = {
  // Its minute is the send lease running out in real time; the integration
  // test freezes the dying attempt after SMTP accepted, lets the clock pass
  // the lease, and sees the resend under the same Message-ID flagged as a
  // duplicate by the real mail sink, recorded once. Killing and restarting a
  // consumer process is what crash-before-ack and crash-after-claim run here.
  'crash-after-email-sent': {
    file: 'apps/notification/src/notification-email/notification-email.crash-windows.int.spec.ts',
    test: 'a crash after the send and before the final commit: the redelivery waits out the lease, then resends under the same Message-ID and records it once',
  },
};

describe('scenarios left to pnpm scenario', () => {
  it('each names an integration test that exists and proves the same', () => {
    for (const [name, { file, test }] of Object.entries(PROVEN_BY_AN_INTEGRATION_TEST)) {
      expect(findScenario(name), name).toBeDefined();
      const source = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
      expect(source, `${file} has no test "${test}"`).toContain(`it('${test}'`);
    }
  });
});

describe('failure scenarios: every invariant holds', () => {
  // A scenario with settings of its own runs on its own stack (own-stack-scenarios.e2e.spec.ts).
  // One that takes infrastructure away runs in infrastructure-faults.e2e.spec.ts.
  for (const scenario of SCENARIOS.filter(
    (candidate) =>
      candidate.stackEnv === undefined &&
      candidate.infrastructure !== true &&
      !(candidate.name in PROVEN_BY_AN_INTEGRATION_TEST),
  )) {
    it(scenario.name, { timeout: 300_000 }, async () => {
      const run = await runScenario(lab, scenario, undefined, DEFAULT_RUN_OPTIONS);
      expect(run.error, explain(run)).toBeUndefined();
      expect(
        run.verdict.report.checks
          .filter((check) => check.status !== 'held')
          .map((check) => check.name),
        explain(run),
      ).toEqual([]);
      expect(
        run.verdict.expectations
          .filter((expectation) => !expectation.held)
          .map((e) => e.description),
        explain(run),
      ).toEqual([]);
      expect(run.timeline.length, explain(run)).toBeGreaterThan(0);
    });
  }
});

describe('common mistakes: each breaks the invariant its scenario protects', () => {
  for (const demonstration of MISTAKES) {
    it(
      `${demonstration.mistake} breaks ${demonstration.breaks} in ${demonstration.scenario}`,
      { timeout: 300_000 },
      async () => {
        const scenario = findScenario(demonstration.scenario);
        if (scenario === undefined) throw new Error(`No scenario ${demonstration.scenario}.`);
        const run = await runScenario(lab, scenario, demonstration, DEFAULT_RUN_OPTIONS);
        const check = run.verdict.report.checks.find(
          (candidate) => candidate.name === demonstration.breaks,
        );
        expect(check?.status, explain(run)).toBe('broken');
        expect(run.verdict.passed, explain(run)).toBe(true);
      },
    );
  }
});
