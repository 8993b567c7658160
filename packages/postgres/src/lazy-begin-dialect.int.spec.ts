import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAfterBegin } from './begin-with-statement.js';
import { lazyBeginDialect } from './lazy-begin-dialect.js';
import { createTestDatabase } from './testing/test-database.js';

interface Tables {
  lazy_begin_row: { id: string };
}

const { url, db: setup } = await createTestDatabase<Tables>({});

/** A one-connection pool that counts ReadyForQuery messages: one per round trip. */
function countingDb(): { db: Kysely<Tables>; roundTrips: () => number } {
  let trips = 0;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('connect', (client) => client.connection.on('readyForQuery', () => trips++));
  const db = new Kysely<Tables>({ dialect: lazyBeginDialect(pool) });
  return { db, roundTrips: () => trips };
}

const rowsWithId = async (id: string): Promise<number> =>
  (await setup.selectFrom('lazy_begin_row').where('id', '=', id).select('id').execute()).length;

describe('lazyBeginDialect', () => {
  const { db, roundTrips } = countingDb();

  beforeAll(async () => {
    await sql`CREATE TABLE lazy_begin_row (id text PRIMARY KEY)`.execute(setup);
    await sql`SELECT 1`.execute(db); // opens the pool's one connection
  });
  afterAll(() => db.destroy());

  it('sends BEGIN with the first statement: two statements and COMMIT in three round trips', async () => {
    const before = roundTrips();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('lazy_begin_row').values({ id: 'three-trips' }).execute();
      await sql`SELECT 1`.execute(trx);
    });
    expect(roundTrips() - before).toBe(3);
    expect(await rowsWithId('three-trips')).toBe(1);
  });

  it('keeps the isolation level asked for', async () => {
    const level = await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        const { rows } = await sql<{
          transaction_isolation: string;
        }>`SHOW transaction_isolation`.execute(trx);
        return rows[0]?.transaction_isolation;
      });
    expect(level).toBe('serializable');
  });

  it('rolls back the first statement with the rest when the work fails', async () => {
    const failure = db.transaction().execute(async (trx) => {
      await trx.insertInto('lazy_begin_row').values({ id: 'rolled-back' }).execute();
      throw new Error('work failed');
    });
    await expect(failure).rejects.toThrow('work failed');
    expect(await rowsWithId('rolled-back')).toBe(0);
  });

  it('leaves the connection usable after a failing first statement', async () => {
    await setup.insertInto('lazy_begin_row').values({ id: 'taken' }).execute();
    const failure = db
      .transaction()
      .execute((trx) => trx.insertInto('lazy_begin_row').values({ id: 'taken' }).execute());
    await expect(failure).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('sends nothing for a transaction that runs no statement', async () => {
    const before = roundTrips();
    await db.transaction().execute(() => Promise.resolve());
    expect(roundTrips() - before).toBe(0);
  });
});

describe('queryAfterBegin', () => {
  it('never runs the statement when BEGIN fails, so it cannot commit on its own', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const insert = { text: 'INSERT INTO lazy_begin_row (id) VALUES ($1)', values: ['orphan'] };
      await expect(queryAfterBegin(client, 'begin isolation level bogus', insert)).rejects.toThrow(
        /syntax error/,
      );
      expect(await rowsWithId('orphan')).toBe(0);
      expect(client.getTransactionStatus()).toBe('I');
    } finally {
      await client.end();
    }
  });
});
