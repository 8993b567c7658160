// The contract's "two writers, one wins" with the overlap forced: the first
// writer's transaction is held open until the second is seen waiting on the
// (stream, revision) unique index, so the conflict path really runs.
import { connect } from '@effectively-once/postgres';
import { createTestDatabase, waitForLockWaiter } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import { WrongExpectedRevisionError } from '@effectively-once/event-store/port/errors';
import { newEvent, uniqueName } from '@effectively-once/event-store/testing';
import { holdAppendOpen } from './testing/hold-append-open.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url } = await createTestDatabase(eventStoreMigrations);

describe('two writers of one revision, overlapping for real', () => {
  it('the second waits for the first, then fails with the revision it found', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    const observer = connect<unknown>(url, { maxConnections: 1 });
    try {
      const stream = uniqueName('race');
      const [first, second] = [newEvent('FirstWriter'), newEvent('SecondWriter')];
      const held = await holdAppendOpen(url, stream, [first]);
      let secondAppend: Promise<unknown>;
      try {
        secondAppend = store
          .appendToStream(stream, [second], { expectedRevision: 'no_stream' })
          .catch((error: unknown) => error);
        const waiter = await waitForLockWaiter(observer, 'event-store');
        expect(waiter.blockedBy).toHaveLength(1);
      } finally {
        await held.commit();
      }

      const outcome = await secondAppend;
      expect(outcome).toBeInstanceOf(WrongExpectedRevisionError);
      expect(outcome).toMatchObject({ expected: 'no_stream', actual: 0n });
      const events = await store.readStream(stream);
      expect(events.map((event) => event.id)).toEqual([first.id]);
    } finally {
      await observer.destroy();
      await store.close();
    }
  });
});
