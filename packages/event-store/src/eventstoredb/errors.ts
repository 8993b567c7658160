// EventStoreDB's errors as the port's, so callers branch on one catalogue.
import {
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  PersistentSubscriptionDoesNotExistError,
  PersistentSubscriptionExistsError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  EventStoreUnavailableError,
  InvalidInputError,
  SubscriptionGroupError,
  WrongExpectedRevisionError,
} from '../port/errors.js';

/**
 * @example
 * try { await client.appendToStream(...) } catch (error) { throw toPortError(error) }
 */
export function toPortError(error: unknown): unknown {
  if (error instanceof WrongExpectedVersionError) {
    return new WrongExpectedRevisionError(
      error.streamName,
      error.expectedVersion,
      error.actualVersion,
      { cause: error },
    );
  }
  if (error instanceof MaxAppendSizeExceededError) {
    return new InvalidInputError(
      'EVENT_TOO_LARGE',
      `The append is over EventStoreDB's maximum append size (${String(error.maxAppendSize)} bytes); nothing was written.`,
      { cause: error },
    );
  }
  if (error instanceof PersistentSubscriptionExistsError) {
    return new SubscriptionGroupError(
      'SUBSCRIPTION_GROUP_EXISTS',
      `Subscription group "${error.groupName}" already exists.`,
      { cause: error },
    );
  }
  if (error instanceof PersistentSubscriptionDoesNotExistError) {
    return new SubscriptionGroupError(
      'SUBSCRIPTION_GROUP_NOT_FOUND',
      `Subscription group "${error.groupName}" does not exist; create it first with createSubscriptionGroup.`,
      { cause: error },
    );
  }
  if (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError
  ) {
    return new EventStoreUnavailableError(`EventStoreDB is unavailable: ${error.message}`, {
      cause: error,
    });
  }
  return error;
}

/** Runs `action`, rethrowing its failure as a port error. */
export async function mapErrors<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw toPortError(error);
  }
}
