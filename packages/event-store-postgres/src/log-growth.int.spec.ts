// A consumer's cost must not grow with the log: the checks an idle subscriber
// makes are index probes bounded by its cursor, never a scan of es_event, and
// a filtered follower moves its cursor past the events it skipped. Whether the
// planner would scan depends on the log's statistics (the saga bench, with
// 200,000 stored events, caught a scan that a small synthetic log does not
// provoke); the probes therefore ask for index order, and this test counts the
// scans a consumer's round makes against a log of 100,000 events.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type RawBuilder } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '@effectively-once/event-store/testing';
import type { EventStoreTables } from './event-store.tables.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';
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

/** Sequential and index scans of es_event made by `statement`, counted inside one transaction. */
async function scansOfEsEvent(statement: RawBuilder<unknown>) {
  return db.transaction().execute(async (trx) => {
    await statement.execute(trx);
    const { rows } = await sql<{ seq_scan: number; idx_scan: number }>`
      SELECT seq_scan::int, idx_scan::int FROM pg_stat_xact_user_tables WHERE relname = 'es_event'`.execute(
      trx,
    );
    return rows[0] ?? { seq_scan: -1, idx_scan: -1 };
  });
}

describe('cost against a long log', () => {
  it("a consumer's round that finds nothing probes the index from its cursor, it does not scan the log", async () => {
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

    // When a consumer's round runs, often enough for its plans to be cached as generic ones
    const round = sql`SELECT * FROM es_consume(${group_id}, 1, 4, true)`;
    for (let warm = 0; warm < 6; warm++) await scansOfEsEvent(round);
    const scans = await scansOfEsEvent(round);

    // Then es_event is only ever read through an index
    expect(scans.seq_scan).toBe(0);
    expect(scans.idx_scan).toBeGreaterThan(0);
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
