import { describe, expect, it } from 'vitest';
import { nextQuickDeaths, restartDelayMs, type RestartPolicy } from './restart-policy.js';

const policy: RestartPolicy = { initialDelayMs: 250, maxDelayMs: 2_000, stableAfterMs: 30_000 };

describe('restart policy', () => {
  it('given a process that keeps dying quickly, then the pause doubles up to the cap', () => {
    let quickDeaths = 0;
    const delays: number[] = [];
    for (let death = 0; death < 6; death += 1) {
      quickDeaths = nextQuickDeaths(policy, quickDeaths, 1_000);
      delays.push(restartDelayMs(policy, quickDeaths));
    }
    expect(delays).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000]);
  });

  it('given a process that ran stably before dying, then it restarts after the shortest pause again', () => {
    const quickDeaths = nextQuickDeaths(policy, 5, 60_000);
    expect(quickDeaths).toBe(0);
    expect(restartDelayMs(policy, quickDeaths)).toBe(250);
  });
});
