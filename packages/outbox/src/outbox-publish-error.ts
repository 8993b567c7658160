// The error a relay's flush() rejects with when some streams could not be
// appended to, and the one-line description the relay logs for any error.
import type { StreamFailure } from './publish-batch.js';

/** Some streams could not be appended to; their rows stay unsent and are retried. */
export class OutboxPublishError extends Error {
  override readonly name = 'OutboxPublishError';
  constructor(
    readonly failures: readonly StreamFailure[],
    /** Events the same run did publish, on other streams. */
    readonly published: number,
  ) {
    const streams = failures.map(
      (failure) => `"${failure.streamName}" (${describeError(failure.error)})`,
    );
    super(
      `Could not append to ${streams.join(', ')}; their rows stay unsent, in order, and are retried. ${String(published)} event(s) of other streams were published.`,
    );
  }
}

/** The error's message followed by its causes', for a log line. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined
    ? error.message
    : `${error.message} (cause: ${describeError(error.cause)})`;
}
