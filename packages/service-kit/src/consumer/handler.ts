import type { KnownEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import type { ProcessResult } from '@effectively-once/idempotency';

/** What a handler returns: processOnce's result, or `ignored` for a type it does not handle. */
export type HandleResult = ProcessResult<unknown> | { outcome: 'ignored' };

/**
 * Where this delivery stands against the group's retry limit. A handler that
 * calls a dependency can give up in a controlled way (record a business
 * outcome) on the last allowed delivery, instead of failing once more and
 * being parked: the last is the one with `retryCount === maxRetryCount`,
 * since a counted retry after it would exceed the limit.
 */
export interface DeliveryAttempt {
  /** 0 on the first delivery; an uncounted retry (a compensation's) does not add one. */
  readonly retryCount: number;
  /** The group's maxRetryCount, as this consumer set it. */
  readonly maxRetryCount: number;
}

/**
 * One message, handled. Handlers that do not care where the delivery stands
 * simply leave out the third parameter.
 *
 * @example
 * const handle: ConsumerHandler = (event, recorded, attempt) =>
 *   authorizePayment({ db, event, recorded, lastAttempt: attempt.retryCount >= attempt.maxRetryCount });
 */
export type ConsumerHandler = (
  event: KnownEvent,
  recorded: RecordedEvent,
  attempt: DeliveryAttempt,
) => Promise<HandleResult>;
