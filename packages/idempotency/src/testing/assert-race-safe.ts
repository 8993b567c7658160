import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { waitForLockWaiter } from '@effectively-once/postgres/testing';
import { processOnce, type UnitOfWork } from '../process-once.js';
import type { IdempotencyTables } from '../processed-message.table.js';
import { settleDelivery } from '../settle-delivery.js';
import { markerCount, type ConsumerCheck } from './consumer-check.js';
import { recordingDelivery } from './recording-delivery.js';

export interface RaceSetup<Database extends IdempotencyTables> {
  /** Opens a pool with its own connections, named `applicationName` in pg_stat_activity. */
  connect: (options: { maxConnections: number; applicationName: string }) => Kysely<Database>;
  /** Asserts that the business effect happened exactly once, from snapshots before and after. */
  assertAppliedOnce: (before: unknown, after: unknown) => void;
}

/**
 * Delivers one message twice at once, on two separate connections, and
 * asserts that exactly one applies and the other reports a duplicate, both are
 * acknowledged, nothing is parked or retried, and the effect happened once.
 *
 * The race is made real, not hoped for: whichever delivery claims first holds
 * its transaction open until PostgreSQL shows the other one waiting on the
 * claim's unique index, then commits.
 */
export async function assertRaceSafe<Database extends IdempotencyTables, Result>(
  setup: RaceSetup<Database>,
  check: ConsumerCheck<Database, Result>,
): Promise<void> {
  const { consumer, message, work, snapshot } = check;
  // PostgreSQL keeps 63 characters of an application name.
  const racers = ['race-a', 'race-b'].map((prefix) => {
    const name = `${prefix}-${message.id}`.slice(0, 63);
    return { name, db: setup.connect({ maxConnections: 1, applicationName: name }) };
  });
  const observer = setup.connect({ maxConnections: 1, applicationName: 'race-observer' });
  const [a, b] = racers as [(typeof racers)[0], (typeof racers)[0]];

  const holdUntilRivalWaits =
    (rival: string): UnitOfWork<Database, Result> =>
    async (trx, msg) => {
      await waitForLockWaiter(observer as Kysely<unknown>, rival);
      return work(trx, msg);
    };
  const deliver = async (racer: typeof a, rival: typeof a) => {
    const delivery = recordingDelivery(message.id);
    const settled = await settleDelivery(delivery, () =>
      processOnce({ db: racer.db, consumer, message, work: holdUntilRivalWaits(rival.name) }),
    );
    return { delivery, settled };
  };

  try {
    const before = await snapshot(a.db);
    const results = await Promise.all([deliver(a, b), deliver(b, a)]);
    const outcomes = results.map((r) =>
      r.settled.action === 'ack' ? r.settled.result.outcome : r.settled.action,
    );
    assert.deepEqual(
      [...outcomes].sort(),
      ['applied', 'duplicate'],
      'one delivery applies, the other is a duplicate',
    );
    for (const { delivery } of results)
      assert.deepEqual(delivery.settlements, ['ack'], 'both are acknowledged');
    assert.equal(await markerCount(a.db, consumer.name, message.id), 1, 'exactly one marker');
    setup.assertAppliedOnce(before, await snapshot(a.db));
  } finally {
    await Promise.all([a.db.destroy(), b.db.destroy(), observer.destroy()]);
  }
}
