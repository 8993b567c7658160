// An event that commits while an older transaction of the store's database is
// still running sits at or above the horizon, and readers must not pass it yet. If that older
// transaction writes no event (an acknowledgment, a lease), it sends no
// notification when it ends: a consumer that waited for one would lose a whole
// poll interval. This test sets the poll interval to a minute, so only the
// recheck can deliver in time. (The catch-up subscription follows the same rule,
// readPage's heldBack; no hook shows when it has read, so no test can pin the
// moment the way onGroupPumped does here.) A transaction in another database
// can never write an event, so it holds nothing back (ADR 0027).
import { createTestDatabase } from '@effectively-once/postgres/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { newEvents, uniqueName } from '@effectively-once/event-store/testing';
import { receive, waitUntil } from '@effectively-once/event-store/testing';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';
import { READ_ALL_HELD_BACK_WAIT_MS } from './read.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const A_MINUTE = 60_000;

const otherDatabase = await createTestDatabase({});

/** A transaction with an xid that writes no event: in the store's database it holds the horizon back until it ends. */
async function openOlderTransaction(databaseUrl = url): Promise<{ end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_current_xact_id()');
  return {
    end: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/**
 * A store that polls once a minute, with one consumer on a prefix of its own
 * that has pumped once: only a notification or the held-back recheck can
 * deliver in time. `pumps()` counts its rounds.
 */
async function consumerOnOwnPrefix(label: string) {
  let pumps = 0;
  const store = createPostgresEventStore({
    url,
    pollIntervalMs: A_MINUTE,
    onGroupPumped: () => (pumps += 1),
  });
  const prefix = uniqueName(label);
  const group = uniqueName('group');
  await store.createSubscriptionGroup(group, {
    filter: { kind: 'stream_prefix', prefixes: [prefix] },
    startFrom: 'start',
  });
  const deliveries = receive(store.subscribeToGroup(group));
  await waitUntil(() => (pumps > 0 ? true : undefined), 'the consumer has pumped once');
  return { store, prefix, deliveries, pumps: () => pumps };
}

describe('events held back by an older transaction', () => {
  it('reach a persistent subscription soon after that transaction ends, without waiting for a poll', async () => {
    const { store, prefix, deliveries, pumps } = await consumerOnOwnPrefix('held');
    try {
      const older = await openOlderTransaction();
      const pumpsBefore = pumps();
      await store.appendToStream(`${prefix}-1`, newEvents(1), { expectedRevision: 'no_stream' });
      // The append's notification woke the consumer, which pumped while the
      // older transaction still held the event back: nothing to deliver yet.
      await waitUntil(
        () => (pumps() > pumpsBefore ? true : undefined),
        'the consumer pumped again',
      );
      const startedAt = Date.now();
      await older.end();

      const [delivery] = await deliveries.atLeast(1, 5_000);
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      await delivery?.ack();
    } finally {
      await store.close();
    }
  });
});

describe("readAll, with events held back by an older transaction of the store's database", () => {
  const store = createPostgresEventStore({ url, pollIntervalMs: A_MINUTE });
  afterAll(() => store.close());

  it('waits for that transaction to end and returns the events, as a caller that just appended expects', async () => {
    const prefix = uniqueName('read-held');
    const older = await openOlderTransaction();
    const events = newEvents(2);
    await store.appendToStream(`${prefix}-1`, events, { expectedRevision: 'no_stream' });
    // Given the older transaction ends 200 ms into the read
    const ending = new Promise((resolve) => setTimeout(resolve, 200)).then(() => older.end());

    // When everything of the prefix is read
    const read = await store.readAll({ filter: { kind: 'stream_prefix', prefixes: [prefix] } });
    await ending;

    // Then both events are there: the read waited instead of returning an empty page
    expect(read.map((recorded) => recorded.id)).toEqual(events.map((event) => event.id));
  });

  it('returns the stable log without them once READ_ALL_HELD_BACK_WAIT_MS has passed, if it is still open', async () => {
    const prefix = uniqueName('read-held-long');
    const older = await openOlderTransaction();
    try {
      await store.appendToStream(`${prefix}-1`, newEvents(1), { expectedRevision: 'no_stream' });
      const startedAt = Date.now();

      const read = await store.readAll({ filter: { kind: 'stream_prefix', prefixes: [prefix] } });

      expect(read).toEqual([]);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(READ_ALL_HELD_BACK_WAIT_MS);
    } finally {
      await older.end();
    }
  });
});

describe('a transaction running in another database of the same server', () => {
  it('holds nothing back: the event reaches a subscription and readAll while it still runs', async () => {
    const { store, prefix, deliveries } = await consumerOnOwnPrefix('elsewhere');
    const elsewhere = await openOlderTransaction(otherDatabase.url);
    try {
      // Given a transaction with an xid older than the event, in another database
      // When an event is appended while it is still open
      const [event] = newEvents(1);
      await store.appendToStream(`${prefix}-1`, [event!], { expectedRevision: 'no_stream' });

      // Then the subscription and readAll both have it (a minute's poll could not deliver it)
      const [delivery] = await deliveries.atLeast(1, 5_000);
      expect(delivery?.event.id).toBe(event!.id);
      await delivery?.ack();
      const read = await store.readAll({ filter: { kind: 'stream_prefix', prefixes: [prefix] } });
      expect(read.map((recorded) => recorded.id)).toEqual([event!.id]);
    } finally {
      await elsewhere.end();
      await store.close();
    }
  });
});
