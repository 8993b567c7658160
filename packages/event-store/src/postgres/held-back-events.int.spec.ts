// An event that commits while an older transaction is still running sits at or
// above the snapshot's xmin, and readers must not pass it yet. If that older
// transaction writes no event (an acknowledgment, a lease), it sends no
// notification when it ends: a consumer that waited for one would lose a whole
// poll interval. This test sets the poll interval to a minute, so only the
// recheck can deliver in time. (The catch-up subscription follows the same rule,
// hasUnreadEvents; no hook shows when it has read, so no test can pin the
// moment the way onGroupPumped does here.)
import { createTestDatabase } from '@effectively-once/postgres/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newEvents, uniqueName } from '../testing/contract/harness.js';
import { receive, waitUntil } from '../testing/receiver.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const A_MINUTE = 60_000;

/** A transaction with an xid that writes no event: it holds the snapshot's xmin back until it ends. */
async function openOlderTransaction(): Promise<{ end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
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

describe('events held back by an older transaction', () => {
  it('reach a persistent subscription soon after that transaction ends, without waiting for a poll', async () => {
    let pumps = 0;
    const store = createPostgresEventStore({
      url,
      pollIntervalMs: A_MINUTE,
      onGroupPumped: () => (pumps += 1),
    });
    try {
      const prefix = uniqueName('held');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        startFrom: 'start',
      });
      const deliveries = receive(store.subscribeToGroup(group));
      await waitUntil(() => (pumps > 0 ? true : undefined), 'the consumer has pumped once');

      const older = await openOlderTransaction();
      const pumpsBefore = pumps;
      await store.appendToStream(`${prefix}-1`, newEvents(1), { expectedRevision: 'no_stream' });
      // The append's notification woke the consumer, which pumped while the
      // older transaction still held the event back: nothing to deliver yet.
      await waitUntil(() => (pumps > pumpsBefore ? true : undefined), 'the consumer pumped again');
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
