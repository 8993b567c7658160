import { describe, expect, it } from 'vitest';
import { TIMER_MAX_FAILED_ATTEMPTS, timerRetryAfter } from './timer-retry.js';

const now = new Date('2026-12-04T10:00:00.000Z');
const delayAfter = (failedAttempts: number): number | 'park' => {
  const retry = timerRetryAfter({ failedAttempts, now });
  return retry.next === 'park' ? 'park' : retry.at.getTime() - now.getTime();
};

describe('timerRetryAfter', () => {
  it('waits the first delay after the first failure, and doubles it after each next one', () => {
    expect([1, 2, 3, 4].map(delayAfter)).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it('parks a timer that failed every time about 8.5 minutes after its first failure', () => {
    const retries = Array.from({ length: TIMER_MAX_FAILED_ATTEMPTS - 1 }, (_, i) =>
      delayAfter(i + 1),
    );

    expect(retries.reduce<number>((sum, delay) => sum + Number(delay), 0)).toBe(511_000);
  });

  it('parks the timer at its last allowed failure', () => {
    expect(delayAfter(TIMER_MAX_FAILED_ATTEMPTS)).toBe('park');
    expect(delayAfter(TIMER_MAX_FAILED_ATTEMPTS - 1)).not.toBe('park');
  });
});
