// message-id-alone against the correct path: one event, two consumers, each
// with its own counter. No failure is needed to show it.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import { defineConsumer } from '@effectively-once/idempotency';
import type { MarkerMistake } from './index.js';
import { markerCount } from '@effectively-once/idempotency/testing';
import { SHARED_MARKER_NAME } from './message-id-alone.js';
import {
  bump,
  deliver,
  newMessage,
  tallyConsumer,
  type TallyDatabase,
  tallyMigrations,
  tallyOf,
  labHooks,
} from './tally.fixtures.js';

const { db } = await createTestDatabase<TallyDatabase>(tallyMigrations);
const auditConsumer = defineConsumer({ name: 'tally-audit-v1' });

async function oneEventTwoConsumers(mistake: MarkerMistake | undefined) {
  const message = newMessage();
  const mistakes =
    mistake === undefined ? {} : { [tallyConsumer.name]: mistake, [auditConsumer.name]: mistake };
  const probe = labHooks({ mistakes });
  const outcomes = [];
  for (const consumer of [tallyConsumer, auditConsumer]) {
    const work = bump(`${consumer.name}:${message.id}`);
    const result = await deliver(probe, { db, consumer, message, work });
    outcomes.push(result.outcome);
  }
  return {
    message,
    outcomes,
    tallies: await Promise.all(
      [tallyConsumer, auditConsumer].map((c) => tallyOf(db, `${c.name}:${message.id}`)),
    ),
  };
}

describe('message-id-alone', () => {
  it('the first consumer suppresses the second: it reports a duplicate it never applied', async () => {
    const run = await oneEventTwoConsumers('message-id-alone');

    expect(run.outcomes).toEqual(['applied', 'duplicate']);
    expect(run.tallies).toEqual([1, 0]);
    expect(await markerCount(db, SHARED_MARKER_NAME, run.message.id)).toBe(1);
  });

  it('the correct path keys the marker by (consumer, message): each consumer applies once', async () => {
    const run = await oneEventTwoConsumers(undefined);

    expect(run.outcomes).toEqual(['applied', 'applied']);
    expect(run.tallies).toEqual([1, 1]);
    expect(await markerCount(db, auditConsumer.name, run.message.id)).toBe(1);
  });
});
