import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAfterHeld } from './begin-with-statement.js';
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

describe('lazyBeginDialect, savepoints', () => {
  const { db, roundTrips } = countingDb();
  afterAll(() => db.destroy());

  const insert = (trx: Kysely<Tables>, id: string) =>
    trx.insertInto('lazy_begin_row').values({ id }).execute();

  it('sends each SAVEPOINT and RELEASE with the next statement: two messages of a batch and COMMIT in three round trips', async () => {
    await sql`SELECT 1`.execute(db);
    const before = roundTrips();
    const trx = await db.startTransaction().execute();
    const first = await trx.savepoint('message_1').execute();
    await insert(first, 'savepoint-one');
    await first.releaseSavepoint('message_1').execute();
    const second = await trx.savepoint('message_2').execute();
    await insert(second, 'savepoint-two');
    await second.releaseSavepoint('message_2').execute();
    await trx.commit().execute();
    expect(roundTrips() - before).toBe(3);
    expect(await rowsWithId('savepoint-one')).toBe(1);
    expect(await rowsWithId('savepoint-two')).toBe(1);
  });

  it('ROLLBACK TO a held-back savepoint takes back its statements only', async () => {
    const trx = await db.startTransaction().execute();
    await insert(trx, 'before-the-savepoint');
    const inside = await trx.savepoint('message_1').execute();
    await insert(inside, 'inside-the-savepoint');
    await inside.rollbackToSavepoint('message_1').execute();
    const next = await trx.savepoint('message_2').execute();
    await insert(next, 'after-the-rollback');
    await next.releaseSavepoint('message_2').execute();
    await trx.commit().execute();
    expect(await rowsWithId('before-the-savepoint')).toBe(1);
    expect(await rowsWithId('inside-the-savepoint')).toBe(0);
    expect(await rowsWithId('after-the-rollback')).toBe(1);
  });

  it('a failing statement after its held-back savepoint can be rolled back to it, and the transaction goes on', async () => {
    await setup.insertInto('lazy_begin_row').values({ id: 'savepoint-taken' }).execute();
    const trx = await db.startTransaction().execute();
    const inside = await trx.savepoint('message_1').execute();
    await expect(insert(inside, 'savepoint-taken')).rejects.toMatchObject({ code: '23505' });
    await inside.rollbackToSavepoint('message_1').execute();
    await insert(trx, 'after-a-failed-savepoint');
    await trx.commit().execute();
    expect(await rowsWithId('after-a-failed-savepoint')).toBe(1);
  });
});

describe('queryAfterHeld', () => {
  it('never runs the statement when BEGIN fails, so it cannot commit on its own', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const insert = { text: 'INSERT INTO lazy_begin_row (id) VALUES ($1)', values: ['orphan'] };
      await expect(queryAfterHeld(client, ['begin isolation level bogus'], insert)).rejects.toThrow(
        /syntax error/,
      );
      expect(await rowsWithId('orphan')).toBe(0);
      expect(client.getTransactionStatus()).toBe('I');
    } finally {
      await client.end();
    }
  });
});
