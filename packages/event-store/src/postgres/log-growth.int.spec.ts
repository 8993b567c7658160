// A consumer's cost must not grow with the log: the checks an idle subscriber
// makes are index probes bounded by its cursor, never a scan of es_event, and
// a filtered follower moves its cursor past the events it skipped. Whether the
// planner would scan depends on the log's statistics (the saga bench, with
// 200,000 stored events, caught a scan that a small synthetic log does not
// provoke); the idle check therefore asks for index order, and this test
// checks the plan it gets against a log of 100,000 events.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type RawBuilder } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../testing/contract/harness.js';
import type { EventStoreTables } from './event-store.tables.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';
import { idleStateQuery } from './pump.js';
import { readPage } from './read.js';

const { url, db } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);
const SEEDED = 100_000;

// A hundred transactions' worth (ids 3 to 102, older than any real one), as
// appends would leave them: the planner's statistics then look like a real log's.
beforeAll(async () => {
  await sql`
    INSERT INTO es_event (transaction_id, event_id, stream_name, stream_revision, event_type, data, metadata)
    SELECT (3 + n / 1000)::text::xid8, gen_random_uuid(), 'seed-' || (n / 100), n % 100, 'Seeded', jsonb_build_object('padding', repeat('x', 100)), '{}'::jsonb
      FROM generate_series(0, ${SEEDED - 1}) n`.execute(db);
  await sql`ANALYZE es_event`.execute(db);
});

async function planOf(query: RawBuilder<unknown>): Promise<string> {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${query}`.execute(db);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

describe('cost against a long log', () => {
  it("an idle consumer's check probes the index from its cursor, it does not scan the log", async () => {
    // Given a group that has caught up with 100,000 events, none of which it wants
    const store = createPostgresEventStore({ url });
    const group = uniqueName('idle');
    await store.createSubscriptionGroup(group, {
      filter: { kind: 'event_type', types: ['Wanted'] },
      startFrom: 'end',
    });
    await store.close();
    const { group_id } = await db
      .selectFrom('es_subscription_group')
      .select('group_id')
      .where('group_name', '=', group)
      .executeTakeFirstOrThrow();

    // When the planner plans the idle check
    const plan = await planOf(idleStateQuery(group_id));

    // Then es_event is read through its global-order index
    expect(plan).toContain('es_event_global_order_idx');
    expect(plan).not.toMatch(/Seq Scan on es_event/);
  });

  it('a filtered page that finds nothing reports how far it read, so the follower never reads those events again', async () => {
    // Given a log whose 100,000 events the filter does not match
    const filter = { kind: 'event_type', types: ['Wanted'] } as const;

    // When a follower reads from the start
    const { rows, scannedTo } = await readPage(db, {
      after: { commit: 0n, prepare: 0n },
      maxCount: 500,
      filter,
    });

    // Then it read nothing, but may move its cursor to the last stable event
    const { rows: last } = await sql<{ transaction_id: string; global_position: number }>`
      SELECT e.transaction_id::text AS transaction_id, e.global_position FROM es_event e
       ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`.execute(db);
    expect(rows).toEqual([]);
    expect(scannedTo).toEqual({
      commit: BigInt(last[0]?.transaction_id ?? -1),
      prepare: BigInt(last[0]?.global_position ?? -1),
    });
  });
});
