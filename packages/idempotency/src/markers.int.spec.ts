// Operator helpers: prove a marker exists, and prune old markers without ever
// cutting into the window in which a message may still be replayed.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import { type InventoryDatabase, inventoryMigrations } from '../examples/inventory/index.js';
import { defineConsumer } from './consumer.js';
import { findMarker, judgeReplays, pruneMarkers, RetentionError } from './markers.js';

const { db } = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-30T12:00:00Z');

async function markerAged(consumerName: string, messageId: string, ageMs: number) {
  await db
    .insertInto('processed_message')
    .values({
      consumer_name: consumerName,
      message_id: messageId,
      processed_at: new Date(now.getTime() - ageMs),
    })
    .execute();
}

describe('markers', () => {
  it('findMarker shows whether a consumer committed a message', async () => {
    await markerAged('shipping-label-v1', 'evt-7', 0);

    expect(await findMarker(db, 'shipping-label-v1', 'evt-7')).toMatchObject({
      consumer_name: 'shipping-label-v1',
      message_id: 'evt-7',
    });
    expect(await findMarker(db, 'shipping-label-v2', 'evt-7')).toBeUndefined();
  });

  it('pruneMarkers deletes only that consumer’s markers older than the window, in batches', async () => {
    const consumer = defineConsumer({ name: 'pruned-consumer-v1', replayHorizonMs: 7 * DAY });
    for (let i = 0; i < 5; i++) await markerAged(consumer.name, `old-${String(i)}`, 10 * DAY);
    await markerAged(consumer.name, 'recent', 2 * DAY);
    await markerAged('other-consumer-v1', 'old-0', 10 * DAY);

    const deleted = await pruneMarkers(db, { consumer, olderThanMs: 7 * DAY, now, batchSize: 2 });

    expect(deleted).toBe(5);
    expect(await findMarker(db, consumer.name, 'recent')).toBeDefined();
    expect(await findMarker(db, consumer.name, 'old-0')).toBeUndefined();
    expect(await findMarker(db, 'other-consumer-v1', 'old-0')).toBeDefined();
  });

  it('pruneMarkers refuses a window shorter than the replay horizon and deletes nothing', async () => {
    const consumer = defineConsumer({ name: 'careful-consumer-v1', replayHorizonMs: 30 * DAY });
    await markerAged(consumer.name, 'evt-1', 10 * DAY);

    const prune = pruneMarkers(db, { consumer, olderThanMs: 7 * DAY, now });

    await expect(prune).rejects.toBeInstanceOf(RetentionError);
    await expect(prune).rejects.toThrow(/replay horizon is 2592000000 ms/);
    expect(await findMarker(db, consumer.name, 'evt-1')).toBeDefined();
  });

  it('judgeReplays finds the markers of the candidates in one go and judges each', async () => {
    // Given a consumer with a 7-day horizon, one old message still marked,
    // and two unmarked ones, one recent and one old
    const consumer = defineConsumer({ name: 'judged-consumer-v1', replayHorizonMs: 7 * DAY });
    await markerAged(consumer.name, 'old-marked', 10 * DAY);
    await markerAged('other-consumer-v1', 'old-unmarked', 10 * DAY);
    const recordedAgo = (ms: number) => new Date(now.getTime() - ms);

    // When
    const judged = await judgeReplays(db, {
      consumer,
      now,
      candidates: [
        { messageId: 'old-marked', recordedAt: recordedAgo(10 * DAY) },
        { messageId: 'recent-unmarked', recordedAt: recordedAgo(DAY) },
        { messageId: 'old-unmarked', recordedAt: recordedAgo(10 * DAY) },
      ],
    });

    // Then another consumer's marker does not count
    expect(judged.map(({ messageId, verdict }) => [messageId, verdict])).toEqual([
      ['old-marked', 'duplicate'],
      ['recent-unmarked', 'within_horizon'],
      ['old-unmarked', 'beyond_horizon'],
    ]);
    expect(await judgeReplays(db, { consumer, now, candidates: [] })).toEqual([]);
  });
});
