import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';

const policy: RetryPolicy = { maxAttempts: 10, baseDelayMs: 10, maxDelayMs: 1000 };
const zero = () => 0;
const half = () => 0.5;
const justBelowOne = () => 1 - Number.EPSILON;

describe('backoffDelayMs', () => {
  it('given random() returns 0, it does not wait, whatever the attempt', () => {
    for (const failedAttempt of [1, 2, 5, 20]) {
      expect(backoffDelayMs(policy, failedAttempt, zero)).toBe(0);
    }
  });

  it('given random() returns just below 1, it waits just below the cap', () => {
    // Given a cap of 10 ms after the first failed attempt

    // When
    const delay = backoffDelayMs(policy, 1, justBelowOne);

    // Then
    expect(delay).toBe(9);
  });

  it.each([
    { failedAttempt: 1, cap: 10 },
    { failedAttempt: 2, cap: 20 },
    { failedAttempt: 3, cap: 40 },
    { failedAttempt: 4, cap: 80 },
    { failedAttempt: 7, cap: 640 },
    { failedAttempt: 8, cap: 1000 },
    { failedAttempt: 9, cap: 1000 },
    { failedAttempt: 60, cap: 1000 },
  ])(
    'given failed attempt $failedAttempt, the cap is $cap ms (doubling, then held at maxDelayMs)',
    ({ failedAttempt, cap }) => {
      expect(backoffDelayMs(policy, failedAttempt, half)).toBe(cap / 2);
      expect(backoffDelayMs(policy, failedAttempt, justBelowOne)).toBe(cap - 1);
    },
  );

  it('given any random value in [0, 1), it waits a whole number of ms in [0, cap)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (failedAttempt, random) => {
          const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
          const delay = backoffDelayMs(policy, failedAttempt, () => random);
          return Number.isInteger(delay) && delay >= 0 && delay < cap;
        },
      ),
    );
  });

  it('given the default policy and Math.random, it never waits longer than 200 ms', () => {
    for (let failedAttempt = 1; failedAttempt <= 50; failedAttempt++) {
      expect(backoffDelayMs(DEFAULT_RETRY_POLICY, failedAttempt)).toBeLessThan(200);
    }
  });
});
