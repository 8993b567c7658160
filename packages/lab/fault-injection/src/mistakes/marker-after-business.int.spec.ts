// marker-after-business against the correct path: the attempt fails at
// after-business (where the lab crashes it), then the message is delivered again.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import type { MarkerMistake } from './index.js';
import { markerCount } from '@effectively-once/idempotency/testing';
import {
  bump,
  deliver,
  failAt,
  newMessage,
  tallyConsumer as consumer,
  type TallyDatabase,
  tallyMigrations,
  tallyOf,
  labHooks,
} from './tally.fixtures.js';

const { db } = await createTestDatabase<TallyDatabase>(tallyMigrations);

async function failAfterBusinessThenRedeliver(mistake: MarkerMistake | undefined) {
  const message = newMessage();
  const mistakes = mistake === undefined ? {} : { [consumer.name]: mistake };
  const crashing = labHooks({ mistakes, onReached: failAt('after-business') });
  const failed = await deliver(crashing, { db, consumer, message, work: bump(message.id) }).catch(
    (error: unknown) => error,
  );
  const afterFailure = {
    tally: await tallyOf(db, message.id),
    markers: await markerCount(db, consumer.name, message.id),
  };
  const redelivered = await deliver(labHooks({ mistakes }), {
    db,
    consumer,
    message,
    work: bump(message.id),
  });
  return {
    failed,
    crashing,
    afterFailure,
    redelivered,
    tally: await tallyOf(db, message.id),
    markers: await markerCount(db, consumer.name, message.id),
  };
}

describe('marker-after-business', () => {
  it('a failure at after-business leaves the effect without its marker: the redelivery applies again, the counter reads 2', async () => {
    const run = await failAfterBusinessThenRedeliver('marker-after-business');

    expect(run.failed).toMatchObject({ name: 'ConsumerFailure', kind: 'retryable' });
    expect(run.crashing.visits).toMatchObject([{ point: 'after-business', inTransaction: false }]);
    expect(run.afterFailure).toEqual({ tally: 1, markers: 0 });
    expect(run.redelivered).toMatchObject({ outcome: 'applied', result: 2 });
    expect(run.tally).toBe(2);
    expect(run.markers).toBe(1);
  });

  it('the correct path fails at after-business before COMMIT: nothing survives, the redelivery applies once', async () => {
    const run = await failAfterBusinessThenRedeliver(undefined);

    expect(run.failed).toMatchObject({ name: 'ConsumerFailure', kind: 'retryable' });
    expect(run.afterFailure).toEqual({ tally: 0, markers: 0 });
    expect(run.redelivered).toMatchObject({ outcome: 'applied', result: 1 });
    expect(run.tally).toBe(1);
    expect(run.markers).toBe(1);
  });
});
