// The one catalogue of errors the port throws. Each has a stable `code`, so a
// caller (or an HTTP error handler) can branch on it without `instanceof`
// across package copies, and each message says what was wrong and what to do.
import type { ExpectedRevision } from './expected-revision.js';

export type EventStoreErrorCode =
  | 'WRONG_EXPECTED_REVISION'
  | 'INVALID_STREAM_NAME'
  | 'INVALID_EVENT'
  | 'EVENT_TOO_LARGE'
  | 'INVALID_EXPECTED_REVISION'
  | 'DUPLICATE_EVENT_ID'
  | 'INVALID_SUBSCRIPTION_SETTINGS'
  | 'SUBSCRIPTION_GROUP_EXISTS'
  | 'SUBSCRIPTION_GROUP_NOT_FOUND'
  /** EventStoreDB replays parked messages in the order they were parked, never one out of the middle. */
  | 'PARKED_REPLAY_OUT_OF_ORDER'
  | 'INVALID_NACK'
  | 'DELIVERY_ALREADY_SETTLED'
  | 'EVENT_STORE_UNAVAILABLE'
  /** The server is older than the back end supports: retrying will not help. */
  | 'UNSUPPORTED_SERVER_VERSION';

/** Base class of every error the port throws. */
export class EventStoreError extends Error {
  override readonly name: string = 'EventStoreError';
  constructor(
    readonly code: EventStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How a stream's current revision is reported: `no_stream` when it has no event. */
export type CurrentRevision = bigint | 'no_stream';

/**
 * An optimistic-concurrency conflict: the stream was not at the revision the
 * writer expected. Nothing was written. Reload the stream, decide again, retry.
 *
 * @example
 * try {
 *   await store.appendToStream(stream, events, { expectedRevision: loaded.revision });
 * } catch (error) {
 *   if (error instanceof WrongExpectedRevisionError) return retryDecision(error.actual);
 *   throw error;
 * }
 */
export class WrongExpectedRevisionError extends EventStoreError {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: CurrentRevision,
    options?: { cause?: unknown },
  ) {
    super(
      'WRONG_EXPECTED_REVISION',
      `Stream "${streamName}" was expected at ${String(expected)} but is at ${String(actual)}; nothing was written.`,
      options,
    );
  }
}

/** Bad input to an append or a read: nothing was written. */
export class InvalidInputError extends EventStoreError {
  override readonly name = 'InvalidInputError';
}

/**
 * An event id that already belongs to another event (another stream, or
 * another revision of this one). Event ids identify one event forever: a
 * consumer deduplicates by them, so reusing one would silently drop an event.
 */
export class DuplicateEventIdError extends EventStoreError {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly eventIds: readonly string[],
    message: string,
  ) {
    super('DUPLICATE_EVENT_ID', message);
  }
}

export class SubscriptionGroupError extends EventStoreError {
  override readonly name = 'SubscriptionGroupError';
}

/** The store could not be reached or failed for a reason that a retry may get past. */
export class EventStoreUnavailableError extends EventStoreError {
  override readonly name = 'EventStoreUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('EVENT_STORE_UNAVAILABLE', message, options);
  }
}
