// in-memory-cache against the correct path: a delivery commits, its ack is
// lost, the process restarts and the broker delivers the message again.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { markerCount } from '@effectively-once/idempotency/testing';
import { forgetInMemoryMarkers, type MarkerMistake } from './index.js';
import {
  bump,
  deliver,
  newMessage,
  tallyConsumer as consumer,
  type TallyDatabase,
  tallyMigrations,
  tallyOf,
  labHooks,
} from './tally.fixtures.js';

const { db } = await createTestDatabase<TallyDatabase>(tallyMigrations);

afterEach(forgetInMemoryMarkers);

async function ackLostThenRestart(mistake: MarkerMistake | undefined) {
  const message = newMessage();
  const probe = labHooks({
    mistakes: mistake === undefined ? {} : { [consumer.name]: mistake },
  });
  const options = { db, consumer, message, work: bump(message.id) };
  const first = await deliver(probe, options);
  // The ack was lost: the same process gets the message again.
  const sameProcess = await deliver(probe, options);
  // The process restarts, and the broker delivers it once more.
  forgetInMemoryMarkers();
  const afterRestart = await deliver(probe, options);
  return {
    outcomes: [first, sameProcess, afterRestart].map((result) => result.outcome),
    tally: await tallyOf(db, message.id),
    markers: await markerCount(db, consumer.name, message.id),
  };
}

describe('in-memory-cache', () => {
  it('works until the restart, then applies the redelivered message again: the counter reads 2', async () => {
    const run = await ackLostThenRestart('in-memory-cache');

    expect(run.outcomes).toEqual(['applied', 'duplicate', 'applied']);
    expect(run.tally).toBe(2);
    expect(run.markers).toBe(0);
  });

  it('the correct path keeps the marker in the database, committed with the work: the counter reads 1', async () => {
    const run = await ackLostThenRestart(undefined);

    expect(run.outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
    expect(run.tally).toBe(1);
    expect(run.markers).toBe(1);
  });
});
