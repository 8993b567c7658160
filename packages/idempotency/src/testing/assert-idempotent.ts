import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { processOnce } from '../process-once.js';
import type { IdempotencyTables } from '../processed-message.table.js';
import { settleDelivery } from '../settle-delivery.js';
import { markerCount, type ConsumerCheck } from './consumer-check.js';
import { recordingDelivery } from './recording-delivery.js';

/**
 * Delivers one message three times, one delivery after the other, and asserts
 * the pattern's promise:
 * 1. a delivery that fails after the work ran is not acknowledged and leaves
 *    nothing behind (no marker, no row the snapshot can see): this catches work
 *    that writes outside the claiming transaction;
 * 2. the next delivery applies and is acknowledged;
 * 3. the one after is a duplicate, is acknowledged, and changes nothing.
 * Uses node:assert, so any test runner works.
 *
 * @example
 * await assertIdempotent(db, {
 *   consumer: inventoryReservation, message, work: reserveStock,
 *   snapshot: (db) => db.selectFrom('inventory').selectAll().execute(),
 * });
 */
export async function assertIdempotent<Database extends IdempotencyTables, Result>(
  db: Kysely<Database>,
  check: ConsumerCheck<Database, Result>,
): Promise<void> {
  const { consumer, message, work, snapshot } = check;
  const deliver = async (failAfterWork = false) => {
    const delivery = recordingDelivery(message.id);
    const settled = await settleDelivery(delivery, () =>
      processOnce({
        db,
        consumer,
        message,
        work: async (trx, msg) => {
          const result = await work(trx, msg);
          if (failAfterWork) throw new Error('test kit: failure injected after the work');
          return result;
        },
      }),
    );
    return { delivery, settled };
  };

  const initially = await snapshot(db);
  const failed = await deliver(true);
  assert.deepEqual(failed.delivery.settlements, ['retry'], 'a failed delivery is not acknowledged');
  assert.deepStrictEqual(
    await snapshot(db),
    initially,
    'a failed delivery is rolled back entirely: the work must write only through the transaction it is given',
  );
  assert.equal(
    await markerCount(db, consumer.name, message.id),
    0,
    'a failed delivery leaves no marker',
  );

  const first = await deliver();
  assert.deepEqual(first.delivery.settlements, ['ack'], 'the first delivery is acknowledged once');
  assert.equal(first.settled.action === 'ack' && first.settled.result.outcome, 'applied');
  const afterFirst = await snapshot(db);

  const second = await deliver();
  assert.deepEqual(second.delivery.settlements, ['ack'], 'a duplicate is acknowledged too');
  assert.equal(
    second.settled.action === 'ack' && second.settled.result.outcome,
    'duplicate',
    'the second delivery of the same message id is a duplicate',
  );
  assert.deepStrictEqual(
    await snapshot(db),
    afterFirst,
    'a duplicate changes no business or outbox row',
  );
  assert.equal(await markerCount(db, consumer.name, message.id), 1, 'exactly one marker');
}
