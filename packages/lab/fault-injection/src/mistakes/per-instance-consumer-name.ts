// MISTAKE per-instance-consumer-name: claims under a name that includes the
// host and process id, e.g. `inventory-demand-v1@host-4711`.
// Breaks whenever a message reaches another instance than the one that
// processed it: after a restart (new pid) or on a second replica the marker
// is someone else's, so a redelivery after a crash before the ack is applied
// again. defineConsumer refuses such names; this flow builds one at run time.
// Lab scenario: crash-before-ack. Correct path: ../attempt-once.ts.
import { hostname } from 'node:os';
import { attemptOnce, type AttemptResult, type HookedAttempt } from '@effectively-once/idempotency';
import type { IdempotencyTables } from '@effectively-once/idempotency';

const thisInstance = (): string => `${hostname()}-${String(process.pid)}`;
let instanceId = thisInstance;

/** Lets a test play several instances in one process; undefined restores the real one. */
export function setInstanceIdForTesting(id: string | undefined): void {
  instanceId = id === undefined ? thisInstance : () => id;
}

export function perInstanceConsumerName<Database extends IdempotencyTables, Result>(
  attempt: HookedAttempt<Database, Result>,
): Promise<AttemptResult<Result>> {
  return attemptOnce(attempt, `${attempt.consumer.name}@${instanceId()}`);
}
