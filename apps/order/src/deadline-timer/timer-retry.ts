// What becomes of a timer whose firing failed: tried again after a backoff
// that doubles, or parked once it has failed too often. Pure.

/**
 * Firings of one timer that may fail before it is parked. With a first
 * backoff of `TIMER_FIRST_RETRY_MS`, doubled after each failure, a timer that
 * fails every time is parked about 8.5 minutes (1 + 2 + … + 256 s) after its
 * first failure: long enough to ride out a restart of the event store, short
 * enough that an operator hears of a broken order soon.
 */
export const TIMER_MAX_FAILED_ATTEMPTS = 10;

/** The wait after a timer's first failure. */
export const TIMER_FIRST_RETRY_MS = 1_000;

export type TimerRetry = { readonly next: 'retry'; readonly at: Date } | { readonly next: 'park' };

/**
 * After the `failedAttempts`-th failure (1 for the first): when to try again,
 * or park. The n-th failure waits 2^(n-1) times the first delay.
 *
 * @example
 * timerRetryAfter({ failedAttempts: 3, now }); // { next: 'retry', at: now + 4 s }
 * timerRetryAfter({ failedAttempts: 10, now }); // { next: 'park' }
 */
export function timerRetryAfter(input: { failedAttempts: number; now: Date }): TimerRetry {
  if (input.failedAttempts >= TIMER_MAX_FAILED_ATTEMPTS) return { next: 'park' };
  const delayMs = TIMER_FIRST_RETRY_MS * 2 ** Math.max(0, input.failedAttempts - 1);
  return { next: 'retry', at: new Date(input.now.getTime() + delayMs) };
}
