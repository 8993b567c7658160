import { toConsumerFailure, type ConsumerFailure } from './consumer-failure.js';
import { classifyFailure } from './failure-classifier.js';
import { waitBeforeRetry } from './retry-policy.js';

/**
 * What a broker hands a consumer: a message that is settled exactly once. The
 * event store's deliveries (`@effectively-once/event-store`) fit it as they are.
 */
export interface Delivery {
  /** Deliveries of this message before this one (0 the first time), when the broker says. */
  readonly retryCount?: number;
  ack(): Promise<void>;
  /** `retry`: deliver again later. `park`: move aside for an operator, with the reason. */
  nack(action: 'retry' | 'park', reason: string): Promise<void>;
}

/**
 * Neither EventStoreDB nor the embedded store waits before redelivering a
 * nacked message, so without a pause here a short database outage would burn
 * through maxRetryCount in milliseconds and park healthy messages.
 */
export const DEFAULT_REDELIVERY_BACKOFF = Object.freeze({ baseDelayMs: 100, maxDelayMs: 5_000 });

export interface SettleOptions {
  /**
   * Runs before a retryable failure is handed back for redelivery. Defaults to
   * full-jitter backoff on DEFAULT_REDELIVERY_BACKOFF by the delivery's retryCount.
   */
  waitBeforeRetry?: (retryCount: number) => Promise<void>;
}

const defaultWaitBeforeRetry = (retryCount: number): Promise<void> =>
  waitBeforeRetry(DEFAULT_REDELIVERY_BACKOFF, retryCount + 1);

export type Settlement<Result> =
  { action: 'ack'; result: Result } | { action: 'retry' | 'park'; failure: ConsumerFailure };

/**
 * The acknowledgment rule as code: acknowledge only after processing resolved,
 * that is after COMMIT returned (applied, or a duplicate whose effect is
 * already committed). A failure is never acknowledged: retryable ones go back
 * for redelivery, terminal ones are parked with their reason.
 *
 * If the process dies between COMMIT and `ack()`, the broker redelivers and the
 * redelivery is a duplicate: the crash costs one extra delivery, not an effect.
 *
 * @example
 * await settleDelivery(delivery, () => processOnce({ db, consumer, message, work }));
 */
export async function settleDelivery<Result>(
  delivery: Delivery,
  process: () => Promise<Result>,
  options: SettleOptions = {},
): Promise<Settlement<Result>> {
  let result: Result;
  try {
    result = await process();
  } catch (error) {
    const failure = toConsumerFailure({ failure: classifyFailure(error), error, attempts: 1 });
    const action = failure.kind === 'terminal' ? 'park' : 'retry';
    if (action === 'retry') {
      await (options.waitBeforeRetry ?? defaultWaitBeforeRetry)(delivery.retryCount ?? 0);
    }
    await delivery.nack(action, failure.reason);
    return { action, failure };
  }
  await delivery.ack();
  return { action: 'ack', result };
}
