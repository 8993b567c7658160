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
   * `retry`: deliver again, not before `retryAfterMs`; with `counted: false`
   * this delivery does not count toward the broker's retry limit. `park`:
   * move aside for an operator, with the reason.
   */
  nack(
    action: 'retry' | 'park',
    reason: string,
    options?: { retryAfterMs?: number; counted?: boolean },
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
   * Defaults to full-jitter backoff on DEFAULT_REDELIVERY_BACKOFF, or, with
   * `retryUntilSuccess`, to full jitter over its whole window.
   */
  retryAfterMs?: (retryCount: number) => number;
  /**
   * For compensations (release, void), which must end however long their
   * dependency is down: a retryable failure is handed back with
   * `counted: false`, so it never uses up the retry limit and is never parked
   * for it. Terminal failures are parked as always, and a delivery that is
   * never settled (a crash) still counts, so a poison message still stops.
   */
  retryUntilSuccess?: boolean;
}

const defaultRetryAfterMs = (retryCount: number): number =>
  backoffDelayMs(DEFAULT_REDELIVERY_BACKOFF, retryCount + 1);

/**
 * An uncounted retry comes back with the same retryCount, so a wait that grows
 * with it would stay at its first, shortest step: a compensation would hit
 * its dependency every few dozen milliseconds for the whole outage. Instead
 * each wait is drawn from the full window, 0 to the 5 s cap: about one try
 * per 2.5 s per message, spread so that the compensations of many orders do
 * not return together when the dependency comes back.
 */
const untilSuccessRetryAfterMs = (): number =>
  Math.floor(Math.random() * DEFAULT_REDELIVERY_BACKOFF.maxDelayMs);

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
    const counted = options.retryUntilSuccess !== true && !failure.untilSuccess;
    const waitFor =
      options.retryAfterMs ?? (counted ? defaultRetryAfterMs : untilSuccessRetryAfterMs);
    const retryAfterMs = waitFor(delivery.retryCount ?? 0);
    await delivery.nack(
      'retry',
      failure.reason,
      counted ? { retryAfterMs } : { retryAfterMs, counted },
    );
    return { action: 'retry', failure, retryAfterMs };
  }
  await delivery.ack();
  return { action: 'ack', result };
}
