// What the embedded store's appendToStreams costs and how it holds under a
// race: one statement and one commit for every stream of the call, the whole
// statement run again when a concurrent writer wins a revision, and each
// written stream announced to the subscribers after the commit.
import { connect } from '@effectively-once/postgres';
import { createTestDatabase, waitForLockWaiter } from '@effectively-once/postgres/testing';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { StreamAppend } from '@effectively-once/event-store/port/event-store';
import { DEFAULT_MAX_EVENT_BYTES } from '@effectively-once/event-store/port/validate-append';
import { newEvent, newEvents, uniqueName } from '@effectively-once/event-store/testing';
import { announcedStreams } from './append-announcement.js';
import { APPENDED_CHANNEL } from './append-channels.js';
import { appendToStreams } from './append-to-streams.js';
import type { EventStoreTables } from './event-store.tables.js';
import { holdAppendOpen } from './testing/hold-append-open.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);
const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
afterAll(() => store.close());

/** A connection that writes down the text of every statement it runs. */
function countingConnection() {
  const statements: string[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<EventStoreTables>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      statements.push(event.query.sql);
    },
  });
  return { db, statements };
}

const newStreams = (count: number) =>
  Array.from({ length: count }, (_, index) => uniqueName(`batch${String(index)}`));

describe("the embedded store's appendToStreams", () => {
  it('writes several streams in one statement and one commit', async () => {
    // Given three streams' appends and a connection that counts statements
    const appends: StreamAppend[] = newStreams(3).map((streamName, index) => ({
      streamName,
      events: newEvents(index + 1),
      expectedRevision: 'no_stream',
    }));
    const { db, statements } = countingConnection();
    try {
      // When they are appended together
      const settled = await appendToStreams(db, {
        appends,
        maxEventBytes: DEFAULT_MAX_EVENT_BYTES,
      });

      // Then one statement wrote them all, and every event has the same
      // transaction (a position's commit part is the writing transaction's id)
      expect(settled.map((outcome) => outcome.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ]);
      expect(statements).toHaveLength(1);
      const stored = await Promise.all(
        appends.map((append) => store.readStream(append.streamName)),
      );
      expect(stored.map((events) => events.length)).toEqual([1, 2, 3]);
      const commits = new Set(stored.flat().map((event) => event.position.commit));
      expect(commits.size).toBe(1);
    } finally {
      await db.destroy();
    }
  });

  it('runs the whole statement again when a concurrent writer takes a revision first', async () => {
    // Given a writer that has inserted a stream's revision 0 and not committed yet
    const observer = connect<unknown>(url, { maxConnections: 1 });
    const [other, contested] = newStreams(2);
    const [otherEvent, winner, loser] = [newEvent(), newEvent('Winner'), newEvent('Loser')];
    const held = await holdAppendOpen(url, contested ?? '', [winner]);
    let settled: Promise<unknown>;
    try {
      // When a call appends to another stream, then to that one, and waits on
      // its unique index until the writer commits
      settled = store.appendToStreams([
        { streamName: other ?? '', events: [otherEvent], expectedRevision: 'no_stream' },
        { streamName: contested ?? '', events: [loser], expectedRevision: 'any' },
      ]);
      await waitForLockWaiter(observer, 'event-store');
    } finally {
      await held.commit();
      await observer.destroy();
    }

    // Then the lost race (23505) rolled both streams back and the statement
    // ran again: both appends hold, each event stored once
    await expect(settled).resolves.toMatchObject([
      { status: 'fulfilled', value: { nextExpectedRevision: 0n } },
      { status: 'fulfilled', value: { nextExpectedRevision: 1n } },
    ]);
    const ids = async (stream: string | undefined) =>
      (await store.readStream(stream ?? '')).map((event) => event.id);
    expect(await ids(other)).toEqual([otherEvent.id]);
    expect(await ids(contested)).toEqual([winner.id, loser.id]);
  });

  it('announces every stream it wrote after the commit, as single appends are', async () => {
    // Given a session listening on the channel the subscribers listen on
    const listener = new pg.Client({ connectionString: url });
    const announced = new Set<string>();
    listener.on('notification', ({ payload }) => {
      for (const stream of announcedStreams(payload ?? '') ?? []) announced.add(stream);
    });
    await listener.connect();
    try {
      await listener.query(`LISTEN ${APPENDED_CHANNEL}`);

      // When one call writes three streams
      const streams = newStreams(3);
      await store.appendToStreams(
        streams.map((streamName) => ({
          streamName,
          events: [newEvent()],
          expectedRevision: 'any' as const,
        })),
      );

      // Then each of them is announced, so a subscriber of any one wakes at once
      await vi.waitFor(() => {
        expect(streams.filter((stream) => !announced.has(stream))).toEqual([]);
      }, 10_000);
    } finally {
      await listener.end();
    }
  });
});
