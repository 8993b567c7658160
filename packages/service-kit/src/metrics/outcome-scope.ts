// Tells the consumer loop whether the handler's processOnce already reported a
// delivery's outcome to the metrics (through `consumerOutcome`), so that a
// delivery is counted once: by processOnce when it ran, by the loop otherwise
// (ignored events, contract violations, failures before the transaction).
import { AsyncLocalStorage } from 'node:async_hooks';

export interface OutcomeScope {
  reported: boolean;
}

const storage = new AsyncLocalStorage<OutcomeScope>();

/** Runs one delivery's handling; `scope.reported` is true afterwards if an outcome was reported inside. */
export function inOutcomeScope<T>(scope: OutcomeScope, run: () => Promise<T>): Promise<T> {
  return storage.run(scope, run);
}

export function noteOutcomeReported(): void {
  const scope = storage.getStore();
  if (scope !== undefined) scope.reported = true;
}
