/** The four things that can become of one delivery, as the pattern names them. */
export type Outcome = 'applied' | 'duplicate' | 'retryable_failure' | 'terminal_failure';

/** Reported once per call, for metrics, logs and the console. */
export interface OutcomeReport {
  outcome: Outcome;
  consumer: string;
  messageId: string;
  eventType: string;
  /** From the first BEGIN to the final COMMIT or ROLLBACK, retries and backoff included. */
  durationMs: number;
  /** Whole-transaction attempts; more than one after 40001 / 40P01. */
  attempts: number;
  /** Time the last claim statement took. */
  claimMs: number;
  /**
   * The claim took long enough that it must have waited on a competing
   * transaction holding the same key (claimMs at or above the threshold). An
   * uncontended primary-key insert takes well under a millisecond.
   */
  claimWaited: boolean;
  /** Why, for a duplicate found by a business key or for a failure. */
  reason?: string;
}

export type OutcomeListener = (report: OutcomeReport) => void;

/** A listener that throws must not turn a committed message into a failure. */
export function notify(listener: OutcomeListener | undefined, report: OutcomeReport): void {
  if (listener === undefined) return;
  try {
    listener(report);
  } catch (error) {
    process.emitWarning(`An outcome listener threw: ${String(error)}`, 'OutcomeListenerWarning');
  }
}
