// replicas-chaos on a lab stack of its own, started as the scenario asks
// (STACK_REPLICAS: two processes of every saga service): a random replica is
// SIGKILLed every few seconds while orders flow, and every order ends once.
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_RUN_OPTIONS,
  findScenario,
  formatRun,
  runScenario,
} from '@effectively-once/scenario-runner';
import { describe, expect, it } from 'vitest';
import { startStack } from '../../support/start-stack.js';

describe('replicas-chaos', () => {
  it(
    'two replicas of every saga service, one killed every few seconds: every invariant holds',
    { timeout: 300_000 },
    async () => {
      const scenario = findScenario('replicas-chaos');
      if (scenario === undefined) throw new Error('No scenario replicas-chaos.');
      const token = randomBytes(16).toString('hex');
      const running = await startStack({
        env: {
          ...scenario.stackEnv,
          STACK_FAULTS: 'true',
          FAULTS_TOKEN: token,
          ADMIN_TOKEN: token,
          // Its own embedded server: the kills must not touch a server others share.
          DATABASE_URL: '',
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
        const explain = run.verdict.passed ? '' : formatRun(run);
        expect(run.error, explain).toBeUndefined();
        expect(
          run.verdict.report.checks.filter((check) => check.status !== 'held').map((c) => c.name),
          explain,
        ).toEqual([]);
        expect(
          run.verdict.expectations.filter((e) => !e.held).map((e) => e.description),
          explain,
        ).toEqual([]);
        expect(run.verdict.expectations.length, explain).toBeGreaterThan(3);
      } finally {
        await running.stop();
      }
    },
  );
});
