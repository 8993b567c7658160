import type { FailureClass } from './failure-classifier.js';

/**
 * How a failed message must be treated next:
 * - `retryable`: not acknowledged; a later delivery may succeed (the database
 *   was unreachable, a serialization conflict outlasted the in-process retries).
 * - `terminal`: no delivery of this message can succeed (invalid data, a broken
 *   constraint): park it with this reason for an operator.
 */
export type FailureKind = 'retryable' | 'terminal';

export interface ConsumerFailureDetails {
  kind: FailureKind;
  reason: string;
  sqlState?: string | undefined;
  /** Whole-transaction attempts made before giving up. */
  attempts?: number;
  /**
   * Retryable only: hand it back uncounted (settleDelivery), so it is retried
   * until it succeeds and never parked for it. For a step that settles what
   * earlier deliveries started and must not be left half-done.
   */
  untilSuccess?: boolean;
  cause?: unknown;
}

/** The one error type consumers see: the marker and the work were rolled back together. */
export class ConsumerFailure extends Error {
  override readonly name: string = 'ConsumerFailure';
  readonly kind: FailureKind;
  readonly reason: string;
  readonly sqlState: string | undefined;
  readonly attempts: number;
  readonly untilSuccess: boolean;

  constructor(details: ConsumerFailureDetails) {
    super(`${details.kind} failure: ${details.reason}`, { cause: details.cause });
    this.kind = details.kind;
    this.reason = details.reason;
    this.sqlState = details.sqlState;
    this.attempts = details.attempts ?? 1;
    this.untilSuccess = details.kind === 'retryable' && details.untilSuccess === true;
  }
}

/**
 * Thrown by a unit of work to say "this message can never be applied", e.g. an
 * unknown SKU. It is parked with the reason instead of being retried forever.
 */
export function terminalFailure(reason: string, cause?: unknown): ConsumerFailure {
  return new ConsumerFailure({ kind: 'terminal', reason, cause });
}

/** Thrown by a unit of work to say "not now, try again later". */
export function retryableFailure(reason: string, cause?: unknown): ConsumerFailure {
  return new ConsumerFailure({ kind: 'retryable', reason, cause });
}

/**
 * Thrown by a unit of work to say "not now, and this one must not be given
 * up on": the message comes back however many times it failed, because
 * parking it would leave something half-done that only it settles. Crashes
 * still count, so a message that kills its process still stops.
 */
export function retryUntilSuccessFailure(reason: string, cause?: unknown): ConsumerFailure {
  return new ConsumerFailure({ kind: 'retryable', reason, cause, untilSuccess: true });
}

/**
 * The error a consumer sees once in-process retries are over. A serialization
 * failure that outlasted them is retryable: a later redelivery may find less
 * contention.
 */
export function toConsumerFailure(run: {
  failure: FailureClass;
  error: unknown;
  attempts: number;
}): ConsumerFailure {
  const { failure, error, attempts } = run;
  if (error instanceof ConsumerFailure) return error;
  const kind = failure.kind === 'terminal' ? 'terminal' : 'retryable';
  const reason =
    failure.kind === 'retry-transaction'
      ? `${failure.reason} (still failing after ${String(attempts)} ${attempts === 1 ? 'attempt' : 'attempts'})`
      : failure.reason;
  return new ConsumerFailure({ kind, reason, sqlState: failure.sqlState, attempts, cause: error });
}
