import { setTimeout as sleep } from 'node:timers/promises';

/** How often and how patiently a whole transaction is retried after 40001 / 40P01. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 5,
  maxDelayMs: 200,
});

/**
 * Exponential backoff with full jitter: a random wait between zero and the
 * exponential cap. Competing transactions that failed together then retry at
 * different moments instead of colliding again.
 */
export function backoffDelayMs(
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  failedAttempt: number,
  random: () => number = Math.random,
): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
  return Math.floor(random() * cap);
}

export function waitBeforeRetry(
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  failedAttempt: number,
): Promise<void> {
  return sleep(backoffDelayMs(policy, failedAttempt));
}
