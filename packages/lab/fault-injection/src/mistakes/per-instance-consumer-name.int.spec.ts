// per-instance-consumer-name against the correct path: a delivery commits on
// one instance, its ack is lost, and the redelivery reaches another instance
// (a restarted process or a second replica).
import { hostname } from 'node:os';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { markerCount } from '@effectively-once/idempotency/testing';
import { setInstanceIdForTesting, type MarkerMistake } from './index.js';
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

afterEach(() => setInstanceIdForTesting(undefined));

async function redeliveredToAnotherInstance(mistake: MarkerMistake | undefined) {
  const message = newMessage();
  const probe = labHooks({
    mistakes: mistake === undefined ? {} : { [consumer.name]: mistake },
  });
  const options = { db, consumer, message, work: bump(message.id) };
  setInstanceIdForTesting('instance-a');
  const first = await deliver(probe, options);
  const sameInstance = await deliver(probe, options);
  setInstanceIdForTesting('instance-b');
  const otherInstance = await deliver(probe, options);
  return {
    message,
    outcomes: [first, sameInstance, otherInstance].map((result) => result.outcome),
    tally: await tallyOf(db, message.id),
  };
}

describe('per-instance-consumer-name', () => {
  it("another instance does not see the first one's marker: applied twice, the counter reads 2", async () => {
    const run = await redeliveredToAnotherInstance('per-instance-consumer-name');

    expect(run.outcomes).toEqual(['applied', 'duplicate', 'applied']);
    expect(run.tally).toBe(2);
    expect(await markerCount(db, `${consumer.name}@instance-a`, run.message.id)).toBe(1);
    expect(await markerCount(db, `${consumer.name}@instance-b`, run.message.id)).toBe(1);
    expect(await markerCount(db, consumer.name, run.message.id)).toBe(0);
  });

  it('outside tests the instance is this host and process id', async () => {
    const message = newMessage();
    const probe = labHooks({ mistakes: { [consumer.name]: 'per-instance-consumer-name' } });

    await deliver(probe, { db, consumer, message, work: bump(message.id) });

    const perInstance = `${consumer.name}@${hostname()}-${String(process.pid)}`;
    expect(await markerCount(db, perInstance, message.id)).toBe(1);
  });

  it('the correct path names the consumer, not the instance: the counter reads 1', async () => {
    const run = await redeliveredToAnotherInstance(undefined);

    expect(run.outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
    expect(run.tally).toBe(1);
  });
});
