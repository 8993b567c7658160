import { randomUUID } from 'node:crypto';
import { EventStoreError, type EventStore } from '@effectively-once/event-store';
import { describe, expect, it } from 'vitest';
import { OutboxPublishError, startOutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
import { countPending, pruneSentEvents } from './outbox.repository.js';
import type { AppendedOutboxRow } from './publish-batch.js';
import type { OutboxTables } from './outbox.table.js';
import {
  enqueueCommitted,
  newStream,
  outboxFixture,
  publishedCounter,
  streamEventIds,
  thingHappened,
} from './testing/fixtures.js';
import { interceptAppends } from './testing/intercept-appends.js';

const { db, url, store } = await outboxFixture();

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Runs `test` with a relay that is closed afterwards, whatever happens. The
 * relay has no connection to LISTEN on and polls once a minute, and its first
 * run is over when `test` starts: what it publishes then, only `flush()` does.
 */
async function withRelay(
  options: Partial<OutboxRelayOptions<OutboxTables>>,
  test: (relay: ReturnType<typeof startOutboxRelay>) => Promise<void>,
) {
  const relay = startOutboxRelay({ db, store, log: silent, pollIntervalMs: 60_000, ...options });
  try {
    await relay.flush().catch(() => undefined);
    await test(relay);
  } finally {
    await relay.close();
  }
}

const unsentIds = async (streamName: string) =>
  (
    await db
      .selectFrom('outbox')
      .select('event_id')
      .where('stream_name', '=', streamName)
      .where('sent_at', 'is', null)
      .orderBy('position')
      .execute()
  ).map((row) => row.event_id);

/**
 * The real store, with the streams of each appendToStreams call and of each
 * single appendToStream written down (only calls naming one of `streams`:
 * other tests leave rows behind).
 */
function recordingAppends(streams: readonly string[]) {
  const batches: string[][] = [];
  const singles: string[] = [];
  const ours = (streamName: string) => streams.includes(streamName);
  const recording: EventStore = {
    ...store,
    appendToStreams: (appends) => {
      const named = appends.map((append) => append.streamName);
      if (named.some(ours)) batches.push(named.filter(ours));
      return store.appendToStreams(appends);
    },
    appendToStream: (streamName, events, options) => {
      if (ours(streamName)) singles.push(streamName);
      return store.appendToStream(streamName, events, options);
    },
  };
  return { recording, batches, singles };
}

describe('the outbox relay', () => {
  it('publishes each row with its event id, in order per stream, and marks it sent', async () => {
    // Given rows of two streams, interleaved, and a relay draining them 3 at a time
    const [a, b] = [newStream(), newStream()];
    const counter = publishedCounter();

    await withRelay({ batchSize: 3, onPublished: counter.onPublished }, async (relay) => {
      const before = counter.total(); // rows other tests left unsent
      const ids = await enqueueCommitted(
        db,
        [0, 1, 2, 3, 4, 5, 6].map((index) => thingHappened(index % 2 === 0 ? a : b, index)),
      );

      // When everything pending is flushed
      const published = await relay.flush();

      // Then each stream holds its events once, with the outbox ids, in position order
      expect(published).toBe(7);
      expect(await relay.pending()).toBe(0);
      expect(await streamEventIds(store, a)).toEqual([ids[0], ids[2], ids[4], ids[6]]);
      expect(await streamEventIds(store, b)).toEqual([ids[1], ids[3], ids[5]]);
      const [first] = await store.readStream(a);
      expect(first).toMatchObject({ type: 'ThingHappened', data: { index: 0 } });
      expect(counter.total() - before).toBe(7);
      expect(await unsentIds(a)).toEqual([]);
    });
  });

  it('counts pending rows and publishes nothing twice on a second flush', async () => {
    const streamName = newStream();
    await withRelay({ pollIntervalMs: 60_000 }, async (relay) => {
      await relay.flush();
      await enqueueCommitted(db, [thingHappened(streamName, 0), thingHappened(streamName, 1)]);
      expect(await relay.pending()).toBe(2);
      expect(await relay.flush()).toBe(2);
      expect(await relay.flush()).toBe(0);
      expect(await streamEventIds(store, streamName)).toHaveLength(2);
    });
  });

  it('wakes on the notification of a committed insert, long before its poll', async () => {
    // Given a relay with its own connection (LISTEN) that would poll only once a minute
    const streamName = newStream();
    const counter = publishedCounter();
    await withRelay(
      { databaseUrl: url, pollIntervalMs: 60_000, onPublished: counter.onPublished },
      async (relay) => {
        await relay.flush(); // its connection is open and listening

        // When a row commits
        const before = counter.total();
        const [id] = await enqueueCommitted(db, [thingHappened(streamName, 0)]);

        // Then the relay publishes it without being asked
        await counter.reached(before + 1);
        expect(await streamEventIds(store, streamName)).toEqual([id]);
      },
    );
  });

  it('appends again, harmlessly, an event whose row was not marked sent (crash after the append)', async () => {
    // Given a relay that dies between the append and the mark: the event is
    // stored, its row still unsent
    const streamName = newStream();
    const [first] = await enqueueCommitted(db, [thingHappened(streamName, 0)]);
    const crashing = interceptAppends(store, async (call) => {
      await call.append();
      throw new Error('crashed before marking the rows sent');
    });
    await withRelay({ store: crashing }, async (relay) => {
      await expect(relay.flush()).rejects.toThrow(OutboxPublishError);
    });
    expect(await streamEventIds(store, streamName)).toEqual([first]);
    expect(await unsentIds(streamName)).toEqual([first]);

    // When a new relay runs, after one more row of the stream was enqueued
    const [second] = await enqueueCommitted(db, [thingHappened(streamName, 1)]);
    const appends: { ids: string[]; outcome: string }[] = [];
    const recording = interceptAppends(store, async (call) => {
      if (call.streamName !== streamName) return call.append(); // rows other tests left
      const ids = call.events.map((event) => event.id);
      try {
        const result = await call.append();
        appends.push({ ids, outcome: 'ok' });
        return result;
      } catch (error) {
        appends.push({ ids, outcome: error instanceof EventStoreError ? error.code : 'error' });
        throw error;
      }
    });
    await withRelay({ store: recording }, async (relay) => {
      await relay.flush();
    });

    // Then each event is in the stream once, in order, and both rows are sent:
    // the store refused the partly repeated append, and one event at a time
    // the stored one was a no-op
    expect(await streamEventIds(store, streamName)).toEqual([first, second]);
    expect(await unsentIds(streamName)).toEqual([]);
    expect(appends).toEqual([
      { ids: [first, second], outcome: 'DUPLICATE_EVENT_ID' },
      { ids: [first], outcome: 'ok' },
      { ids: [second], outcome: 'ok' },
    ]);
  });

  it('awaits afterAppend between the append and the mark: a throwing hook leaves the row unsent, and the next flush stores it once', async () => {
    // Given a relay whose afterAppend fails the first time
    const streamName = newStream('order');
    const orderId = randomUUID();
    const seen: AppendedOutboxRow[] = [];
    const stored: string[][] = [];
    let failures = 1;
    const afterAppend = async (row: AppendedOutboxRow) => {
      if (row.streamName !== streamName) return; // rows other tests left
      seen.push(row);
      // What the store holds at this point: the hook runs after the append resolved.
      stored.push(await streamEventIds(store, streamName));
      if (failures-- > 0) throw new Error('crash at after-relay-append');
    };
    let eventId: string | undefined;

    await withRelay({ afterAppend }, async (relay) => {
      // When a row of an order is flushed, its event is stored but the row stays unsent
      [eventId] = await enqueueCommitted(db, [
        { ...thingHappened(streamName, 0), metadata: { correlationId: orderId } },
      ]);
      await expect(relay.flush()).rejects.toThrow(/crash at after-relay-append/);
      expect(await unsentIds(streamName)).toEqual([eventId]);

      // And the next flush appends the same event id again
      await relay.flush();
    });

    // Then the hook saw the row twice, the stream holds the event once, and the row is sent
    const row = { eventId, streamName, type: 'ThingHappened', orderId };
    expect(seen).toEqual([row, row]);
    expect(stored).toEqual([[eventId], [eventId]]);
    expect(await streamEventIds(store, streamName)).toEqual([eventId]);
    expect(await unsentIds(streamName)).toEqual([]);
  });

  it('appends again, harmlessly, a whole batch whose marks were lost', async () => {
    await withRelay({}, async (relay) => {
      // Given a batch published, then its rows found unsent again
      const streamName = newStream();
      const ids = await enqueueCommitted(
        db,
        [0, 1, 2].map((i) => thingHappened(streamName, i)),
      );
      expect(await relay.flush()).toBe(3);
      await db
        .updateTable('outbox')
        .set({ sent_at: null })
        .where('stream_name', '=', streamName)
        .execute();

      // When the relay publishes them again
      expect(await relay.flush()).toBe(3);

      // Then the stream still holds each event once
      expect(await streamEventIds(store, streamName)).toEqual(ids);
    });
  });

  it('holds back a failing stream, keeping its order, while other streams go on', async () => {
    // Given a store that refuses appends to one stream
    const [broken, healthy] = [newStream(), newStream()];
    const ids = await enqueueCommitted(db, [
      thingHappened(broken, 0),
      thingHappened(healthy, 0),
      thingHappened(broken, 1),
      thingHappened(healthy, 1),
    ]);
    let refusing = true;
    const flaky = interceptAppends(store, (call) => {
      if (refusing && call.streamName === broken) throw new Error('store unavailable');
      return call.append();
    });

    await withRelay({ store: flaky, pollIntervalMs: 60_000 }, async (relay) => {
      // When the relay runs, the failing stream's rows stay unsent
      const outcome = await relay.flush().catch((error: unknown) => error);
      expect(outcome).toBeInstanceOf(OutboxPublishError);
      expect(outcome).toMatchObject({ failures: [{ streamName: broken }] });
      expect(String(outcome)).toMatch(/store unavailable/);
      expect(await streamEventIds(store, healthy)).toEqual([ids[1], ids[3]]);
      expect(await streamEventIds(store, broken)).toEqual([]);
      expect(await unsentIds(broken)).toEqual([ids[0], ids[2]]);

      // And once the store accepts it again, they follow in their order
      refusing = false;
      expect(await relay.flush()).toBe(2);
      expect(await streamEventIds(store, broken)).toEqual([ids[0], ids[2]]);
    });
  });

  it('appends a batch of several streams in one call, one commit on the embedded store', async () => {
    // Given rows of three streams, interleaved, and a relay that records its appends
    const streams = [newStream(), newStream(), newStream()];
    const { recording, batches, singles } = recordingAppends(streams);
    const hooked: string[] = [];
    const afterAppend = async (row: AppendedOutboxRow) => {
      if (streams.includes(row.streamName)) hooked.push(row.eventId);
      await Promise.resolve();
    };

    await withRelay({ store: recording, afterAppend }, async (relay) => {
      const ids = await enqueueCommitted(
        db,
        [0, 1, 2, 3, 4, 5].map((index) => thingHappened(streams[index % 3] ?? '', index)),
      );

      // When the relay publishes them
      await relay.flush();

      // Then one appendToStreams carried all three streams, none was appended alone,
      const perStream = [
        [ids[0], ids[3]],
        [ids[1], ids[4]],
        [ids[2], ids[5]],
      ];
      expect({ batches, singles }).toEqual({ batches: [streams], singles: [] });
      // each stream holds its events in order, every row is sent and went past the hook once,
      const stored = await Promise.all(streams.map((stream) => store.readStream(stream)));
      expect(stored.map((events) => events.map((event) => event.id))).toEqual(perStream);
      for (const stream of streams) expect(await unsentIds(stream)).toEqual([]);
      expect(hooked).toEqual(perStream.flat());
      // and the embedded store wrote them all in one transaction
      expect(new Set(stored.flat().map((event) => event.position.commit)).size).toBe(1);
    });
  });

  it('keeps a stream that fails inside the batch unsent, in order, while the batch’s other streams are sent', async () => {
    // Given a row whose event id already names an event of another stream (a
    // producer reused a deterministic id), a later row of its stream, and rows
    // of two healthy streams in the same batch
    const [broken, healthyA, healthyB, elsewhere] = [
      newStream(),
      newStream(),
      newStream(),
      newStream(),
    ];
    const reusedId = randomUUID();
    await store.appendToStream(elsewhere, [{ id: reusedId, type: 'ThingHappened', data: {} }], {
      expectedRevision: 'no_stream',
    });
    const { recording, batches, singles } = recordingAppends([broken, healthyA, healthyB]);

    try {
      await withRelay({ store: recording }, async (relay) => {
        const [a0, , b0, later, a1] = await enqueueCommitted(db, [
          thingHappened(healthyA, 0),
          { ...thingHappened(broken, 0), id: reusedId },
          thingHappened(healthyB, 0),
          thingHappened(broken, 1),
          thingHappened(healthyA, 1),
        ]);

        // When the relay publishes the batch
        const outcome = await relay.flush().catch((error: unknown) => error);

        // Then the broken stream alone failed, as the store refused it
        expect(outcome).toBeInstanceOf(OutboxPublishError);
        expect(outcome).toMatchObject({
          failures: [{ streamName: broken, error: { code: 'DUPLICATE_EVENT_ID' } }],
        });
        // after one call for the whole batch, and one event at a time for that stream only
        expect(batches).toEqual([[healthyA, broken, healthyB]]);
        expect(singles).toEqual([broken]);
        // its rows stay unsent, the later one behind the refused one, and nothing of it is stored
        expect(await unsentIds(broken)).toEqual([reusedId, later]);
        expect(await streamEventIds(store, broken)).toEqual([]);
        // while the other streams are stored and sent
        expect(await streamEventIds(store, healthyA)).toEqual([a0, a1]);
        expect(await streamEventIds(store, healthyB)).toEqual([b0]);
        expect([...(await unsentIds(healthyA)), ...(await unsentIds(healthyB))]).toEqual([]);
      });
    } finally {
      // A row that can never be appended would hold up the other tests' flushes.
      await db.deleteFrom('outbox').where('stream_name', '=', broken).execute();
    }
  });

  it('logs a failure and retries on its own with backoff', async () => {
    // Given a store that fails the first two appends of a stream
    const streamName = newStream();
    const [id] = await enqueueCommitted(db, [thingHappened(streamName, 0)]);
    const due = await countPending(db);
    let failuresLeft = 2;
    const flaky = interceptAppends(store, (call) => {
      if (call.streamName === streamName && failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('connection reset');
      }
      return call.append();
    });
    const errors: string[] = [];
    const counter = publishedCounter();

    // When the relay runs by itself
    const relay = startOutboxRelay({
      db,
      store: flaky,
      pollIntervalMs: 10,
      log: { ...silent, error: (message: string) => errors.push(message) },
      onPublished: counter.onPublished,
    });
    try {
      // Then it publishes the event after logging each failure with its next delay
      await counter.reached(due);
    } finally {
      await relay.close();
    }
    expect(await streamEventIds(store, streamName)).toContain(id);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/connection reset.*retrying in 10 ms/);
    expect(errors[1]).toMatch(/retrying in 20 ms/);
  });

  it('deletes sent rows past the retention, keeping younger and unsent ones', async () => {
    // Given a row sent 8 days ago, one sent a day ago, and an unsent one
    const streamName = newStream();
    const [old, recent, unsent] = await enqueueCommitted(
      db,
      [0, 1, 2].map((i) => thingHappened(streamName, i)),
    );
    const sentAgo = (id: string | undefined, days: number) =>
      db
        .updateTable('outbox')
        .set({ sent_at: new Date(Date.now() - days * 24 * 3_600_000) })
        .where('event_id', '=', id!)
        .execute();
    await sentAgo(old, 8);
    await sentAgo(recent, 1);

    // When old rows are pruned
    expect(await pruneSentEvents(db, { olderThanMs: 7 * 24 * 3_600_000, batchSize: 1 })).toBe(1);

    // Then only the old sent row is gone
    const left = await db
      .selectFrom('outbox')
      .select('event_id')
      .where('stream_name', '=', streamName)
      .orderBy('position')
      .execute();
    expect(left.map((row) => row.event_id)).toEqual([recent, unsent]);
  });

  it('prunes on its first run, with the default retention of 7 days', async () => {
    const streamName = newStream();
    const [old] = await enqueueCommitted(db, [thingHappened(streamName, 0)]);
    await db
      .updateTable('outbox')
      .set({ sent_at: new Date(Date.now() - 8 * 24 * 3_600_000) })
      .where('event_id', '=', old!)
      .execute();
    await withRelay({}, async (relay) => {
      await relay.flush();
    });
    expect(await unsentIds(streamName)).toEqual([]);
    expect(
      await db.selectFrom('outbox').select('event_id').where('event_id', '=', old!).execute(),
    ).toEqual([]);
  });

  it('refuses a flush after close', async () => {
    const relay = startOutboxRelay({ db, store, log: silent });
    await relay.close();
    await relay.close(); // closing twice is harmless
    await expect(relay.flush()).rejects.toThrow(/closed/);
  });

  it('refuses bad settings at start', () => {
    expect(() => startOutboxRelay({ db, store, batchSize: 0 })).toThrow();
    expect(() => startOutboxRelay({ db, store, pollIntervalMs: -1 })).toThrow();
  });
});
