// processOnce as a batched consumer loop runs it (ADR 0036): inside a batch,
// after another message's savepoint was rolled back, then alone if it left the batch or the
// batch did not commit. A suite run once with processOnce and once with this
// shows its consumer behaves the same either way.
import { randomUUID } from 'node:crypto';
import { defineConsumer } from '../consumer.js';
import { MessageLeftBatchError, openMessageBatch } from '../message-batch.js';
import { processOnce, type ProcessOnceOptions, type ProcessResult } from '../process-once.js';
import type { IdempotencyTables } from '../processed-message.table.js';

const neighbour = defineConsumer({ name: 'test-kit-batch-neighbour-v1' });

/**
 * @example
 * describe.each([{ run: processOnce }, { run: processOnceInABatch }])('my consumer', ({ run }) => { ... });
 */
export async function processOnceInABatch<Database extends IdempotencyTables, Result>(
  options: ProcessOnceOptions<Database, Result>,
): Promise<ProcessResult<Result>> {
  const batch = openMessageBatch();
  // Another message first, which fails inside the batch: this one then runs
  // in a begun transaction, after a savepoint rolled back, and the neighbour
  // leaves no marker behind to disturb the suite's counts.
  const before = batch
    .run(() =>
      processOnce({
        db: options.db,
        consumer: { ...neighbour, isolation: options.consumer.isolation },
        message: { id: randomUUID(), type: 'TestKitNeighbour' },
        work: () => Promise.reject(new Error('the neighbour fails inside the batch')),
      }),
    )
    .catch(() => undefined);
  const inBatch = await batch
    .run(() => processOnce(options))
    .then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  await before;
  // Ended whatever happened, as the consumer loop ends every batch it opens.
  const committed = await batch.commit().then(
    () => true,
    () => false,
  );
  if (inBatch.ok && committed) return inBatch.result;
  if (!inBatch.ok && !(inBatch.error instanceof MessageLeftBatchError)) throw inBatch.error;
  return processOnce(options);
}
