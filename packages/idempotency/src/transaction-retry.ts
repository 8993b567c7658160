import type { Consumer } from './consumer.js';
import { classifyFailure, type FailureClass } from './failure-classifier.js';
import { waitBeforeRetry } from './retry-policy.js';

export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; failure: FailureClass; error: unknown; attempts: number };

/**
 * Runs a whole transaction, restarting it from BEGIN after 40001 / 40P01.
 * Never a single statement: after such an error PostgreSQL has aborted the
 * transaction, so only a fresh one (claim, work, commit) can succeed. Bounded
 * by the consumer's retry policy, with jittered backoff between attempts.
 * `transaction` is told its 1-based attempt number.
 */
export async function runWithTransactionRetry<T>(
  consumer: Consumer,
  transaction: (attempt: number) => Promise<T>,
): Promise<RetryOutcome<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await transaction(attempt), attempts: attempt };
    } catch (error) {
      const failure = classifyFailure(error, consumer.businessKeys);
      if (failure.kind !== 'retry-transaction' || attempt >= consumer.retry.maxAttempts) {
        return { ok: false, failure, error, attempts: attempt };
      }
      await waitBeforeRetry(consumer.retry, attempt);
    }
  }
}
