// check-then-act against the correct path, with one interleaving for both: two
// deliveries of one message on two connections, each held at before-claim
// until the other has arrived there too.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import { withProcessingHooks } from '@effectively-once/idempotency';
import type { MarkerMistake } from './index.js';
import { processOnce } from '@effectively-once/idempotency';
import { markerCount } from '@effectively-once/idempotency/testing';
import {
  barrier,
  bump,
  newMessage,
  tallyConsumer as consumer,
  type TallyDatabase,
  tallyMigrations,
  tallyOf,
  labHooks,
} from './tally.fixtures.js';

const testDb = await createTestDatabase<TallyDatabase>(tallyMigrations);
const { db } = testDb;
const instances = ['instance-a', 'instance-b'].map((applicationName) =>
  testDb.connect({ maxConnections: 1, applicationName }),
);

/** Both deliveries pass the point before either goes on. */
async function concurrentDeliveries(mistake: MarkerMistake | undefined) {
  const message = newMessage();
  const bothAtClaim = barrier(2);
  const probe = labHooks({
    mistakes: mistake === undefined ? {} : { [consumer.name]: mistake },
    onReached: (point) => (point === 'before-claim' ? bothAtClaim.arrive() : Promise.resolve()),
  });
  const results = await Promise.all(
    instances.map((instance) =>
      withProcessingHooks(probe, () =>
        processOnce({ db: instance, consumer, message, work: bump(message.id) }),
      ),
    ),
  );
  return {
    outcomes: results.map((result) => result.outcome).sort(),
    tally: await tallyOf(db, message.id),
    markers: await markerCount(db, consumer.name, message.id),
  };
}

describe('check-then-act', () => {
  it('two concurrent deliveries both pass the check: both apply, the counter reads 2', async () => {
    const race = await concurrentDeliveries('check-then-act');

    expect(race.outcomes).toEqual(['applied', 'applied']);
    expect(race.tally).toBe(2);
    // One marker for two effects: the marker table no longer tells the truth.
    expect(race.markers).toBe(1);
  });

  it('the correct path, held at the same point, applies once: the INSERT decides, not a SELECT', async () => {
    const race = await concurrentDeliveries(undefined);

    expect(race.outcomes).toEqual(['applied', 'duplicate']);
    expect(race.tally).toBe(1);
    expect(race.markers).toBe(1);
  });
});
