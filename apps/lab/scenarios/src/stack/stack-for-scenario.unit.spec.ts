import { describe, expect, it } from 'vitest';
import { stackForScenario } from './stack-for-scenario.js';

const SHORT_DEADLINES = { ORDER_PAYMENT_DEADLINE_MS: '4000', ORDER_TIMER_POLL_MS: '100' };

describe('the stack a scenario runs on', () => {
  it('given a scenario written for settings of its own, when run alone or among others, then it gets a stack started with them', () => {
    for (const runs of [1, 45]) {
      expect(stackForScenario({ stackEnv: SHORT_DEADLINES }, { runs })).toEqual({
        kind: 'own',
        env: SHORT_DEADLINES,
        why: 'it is written for ORDER_PAYMENT_DEADLINE_MS=4000 ORDER_TIMER_POLL_MS=100',
      });
    }
  });

  it('given a scenario that takes infrastructure away, when run among others, then it gets a stack of its own with the defaults', () => {
    expect(stackForScenario({ infrastructure: true }, { runs: 2 })).toMatchObject({
      kind: 'own',
      env: {},
    });
  });

  it('given a scenario that takes infrastructure away, when it is the only run, then it runs where asked', () => {
    expect(stackForScenario({ infrastructure: true }, { runs: 1 })).toEqual({ kind: 'shared' });
  });

  it('given any other scenario, then it shares the stack', () => {
    expect(stackForScenario({}, { runs: 45 })).toEqual({ kind: 'shared' });
  });
});
