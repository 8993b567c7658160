// The failure scenarios written for settings of their own (short saga
// deadlines, two replicas of every service): each runs on a lab stack started
// with its `stackEnv`, as `pnpm scenario <name>` would start it, so the run
// takes seconds. One that also takes infrastructure away (replicas-chaos
// kills processes) gets an embedded server of its own. The other scenarios
// share one stack (failure-lab.e2e.spec.ts).
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_RUN_OPTIONS,
  SCENARIOS,
  formatRun,
  runScenario,
  type ScenarioRun,
} from '@effectively-once/scenario-runner';
import { describe, expect, it } from 'vitest';
import { startStack } from '../../support/start-stack.js';

function explain(run: ScenarioRun): string {
  return run.verdict.passed ? '' : formatRun(run);
}

describe('failure scenarios on a stack of their own: every invariant holds', () => {
  for (const scenario of SCENARIOS.filter((candidate) => candidate.stackEnv !== undefined)) {
    it(scenario.name, { timeout: 300_000 }, async () => {
      const token = randomBytes(16).toString('hex');
      const running = await startStack({
        env: {
          ...scenario.stackEnv,
          STACK_FAULTS: 'true',
          FAULTS_TOKEN: token,
          ADMIN_TOKEN: token,
          // A fault under the whole stack must never reach a server other stacks share.
          ...(scenario.infrastructure === true ? { DATABASE_URL: '' } : {}),
        },
      });
      try {
        const run = await runScenario(
          {
            gatewayUrl: running.gatewayUrl,
            ports: running.ports,
            databases: running.databases,
            faults: { enabled: true, token },
            adminToken: token,
          },
          scenario,
          undefined,
          DEFAULT_RUN_OPTIONS,
        );
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
      } finally {
        await running.stop();
      }
    });
  }
});
