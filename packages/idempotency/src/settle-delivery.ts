import { toConsumerFailure, type ConsumerFailure } from './consumer-failure.js';
import { classifyFailure } from './failure-classifier.js';
import { backoffDelayMs } from './retry-policy.js';

/**
 * What a broker hands a consumer: a message that is settled exactly once. The
 * event store's deliveries (`@effectively-once/event-store`) fit it as they are.
 */
export interface Delivery {
  /** Deliveries of this message before this one (0 the first time), when the broker says. */
  readonly retryCount?: number;
  ack(): Promise<void>;
  /**
   * `retry`: deliver again, not before `retryAfterMs`. `park`: move aside for
   * an operator, with the reason.
   */
  nack(
    action: 'retry' | 'park',
    reason: string,
    options?: { retryAfterMs?: number },
  ): Promise<void>;
}

/**
 * How long a retried message stays away. Without a pause a short database
 * outage would burn through maxRetryCount in milliseconds and park healthy
 * messages. The pause is the store's to keep (`retryAfterMs`), never a sleep
 * here: a consumer that slept would hold its slot, and a few failing messages
 * would stall every healthy one behind them (head-of-line blocking).
 */
export const DEFAULT_REDELIVERY_BACKOFF = Object.freeze({ baseDelayMs: 100, maxDelayMs: 5_000 });

export interface SettleOptions {
  /**
   * How long a retryable failure stays away, by the delivery's retryCount.
   * Defaults to full-jitter backoff on DEFAULT_REDELIVERY_BACKOFF.
   */
  retryAfterMs?: (retryCount: number) => number;
}

const defaultRetryAfterMs = (retryCount: number): number =>
  backoffDelayMs(DEFAULT_REDELIVERY_BACKOFF, retryCount + 1);

export type Settlement<Result> =
  | { action: 'ack'; result: Result }
  | { action: 'retry'; failure: ConsumerFailure; retryAfterMs: number }
  | { action: 'park'; failure: ConsumerFailure };

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
    if (failure.kind === 'terminal') {
      await delivery.nack('park', failure.reason);
      return { action: 'park', failure };
    }
    const retryAfterMs = (options.retryAfterMs ?? defaultRetryAfterMs)(delivery.retryCount ?? 0);
    await delivery.nack('retry', failure.reason, { retryAfterMs });
    return { action: 'retry', failure, retryAfterMs };
  }
  await delivery.ack();
  return { action: 'ack', result };
}
