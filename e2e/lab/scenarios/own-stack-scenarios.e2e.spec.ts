// The failure scenarios written for settings of their own (short saga
// deadlines, two replicas of every service): each runs on a lab stack started
// with its `stackEnv`, as `pnpm scenario <name>` would start it, so the run
// takes seconds. Scenarios with the same settings share one stack, one after
// another, as the others share theirs: each creates its own SKU and orders and
// the runner disarms its faults when it ends. One that also takes
// infrastructure away (replicas-chaos kills processes) gets a stack and an
// embedded server of its own. The other scenarios share one stack
// (failure-lab.e2e.spec.ts).
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_RUN_OPTIONS,
  SCENARIOS,
  formatRun,
  runScenario,
  type LabStack,
  type Scenario,
  type ScenarioRun,
} from '@effectively-once/scenario-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../support/start-stack.js';

function explain(run: ScenarioRun): string {
  return run.verdict.passed ? '' : formatRun(run);
}

/**
 * The scenarios with settings of their own, grouped by the stack they need:
 * one group per distinct `stackEnv`, and one for each that takes
 * infrastructure away, whose faults no other scenario should run after.
 */
function stackGroups(): Scenario[][] {
  const groups = new Map<string, Scenario[]>();
  for (const scenario of SCENARIOS.filter((candidate) => candidate.stackEnv !== undefined)) {
    const key =
      scenario.infrastructure === true
        ? `alone:${scenario.name}`
        : JSON.stringify(scenario.stackEnv);
    groups.set(key, [...(groups.get(key) ?? []), scenario]);
  }
  return [...groups.values()];
}

for (const group of stackGroups()) {
  const [first] = group;
  if (first === undefined) continue;
  describe(`failure scenarios on a stack of their own (${group.map((s) => s.name).join(', ')}): every invariant holds`, () => {
    let running: RunningStack;
    let lab: LabStack;

    beforeAll(async () => {
      const token = randomBytes(16).toString('hex');
      running = await startStack({
        env: {
          ...first.stackEnv,
          STACK_FAULTS: 'true',
          FAULTS_TOKEN: token,
          ADMIN_TOKEN: token,
          // A fault under the whole stack must never reach a server other stacks share.
          ...(first.infrastructure === true ? { DATABASE_URL: '' } : {}),
        },
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

    for (const scenario of group) {
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
          run.verdict.expectations.filter((expectation) => !expectation.held),
          explain(run),
        ).toEqual([]);
        expect(run.verdict.expectations.length, explain(run)).toBeGreaterThan(0);
      });
    }
  });
}
