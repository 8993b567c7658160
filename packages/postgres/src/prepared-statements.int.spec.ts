import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyBeginDialect } from './lazy-begin-dialect.js';
import { createTestDatabase } from './testing/test-database.js';

interface Tables {
  prepared_row: { id: string };
  created_later: { id: string };
  grows_a_column: { id: string; added?: string };
}

const { url, db: setup } = await createTestDatabase<Tables>({});
await sql`CREATE TABLE prepared_row (id text PRIMARY KEY)`.execute(setup);
await sql`CREATE TABLE grows_a_column (id text PRIMARY KEY)`.execute(setup);
await sql`INSERT INTO grows_a_column (id) VALUES ('only')`.execute(setup);

const opened: Kysely<Tables>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
});

/** One session only, so every statement below runs where the last one did. */
function oneSession(maxPreparedStatements?: number): Kysely<Tables> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const options = maxPreparedStatements === undefined ? {} : { maxPreparedStatements };
  const db = new Kysely<Tables>({ dialect: lazyBeginDialect(pool, options) });
  opened.push(db);
  return db;
}

/** The statements this session has prepared, as PostgreSQL lists them. */
async function preparedTexts(db: Kysely<Tables>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`
    SELECT statement FROM pg_prepared_statements ORDER BY statement`.execute(db);
  return rows.map((row) => row.statement);
}

const selectId = (db: Kysely<Tables>, id: string) =>
  db.selectFrom('prepared_row').select('id').where('id', '=', id).execute();

describe('prepared statements', () => {
  it('prepares a statement with parameters once per session and runs it by name after', async () => {
    const db = oneSession();
    await selectId(db, 'a');
    await selectId(db, 'b');
    await db.transaction().execute((trx) => selectId(trx, 'c'));
    expect(await preparedTexts(db)).toEqual(['select "id" from "prepared_row" where "id" = $1']);
  });

  it('leaves a statement without parameters unnamed, so one text may hold several commands', async () => {
    const db = oneSession();
    await sql`SELECT 1; SELECT 2`.execute(db);
    expect(await preparedTexts(db)).toEqual([]);
  });

  it('prepares no more texts than the limit; the ones past it still run', async () => {
    const db = oneSession(2);
    for (const value of [1, 2, 3, 4]) {
      const { rows } = await sql<{
        n: number;
      }>`SELECT ${value}::int + ${String(value)}::int AS n`.execute(db);
      expect(rows).toEqual([{ n: value * 2 }]);
      // A new text per value: one, two, three and four parameters.
      await sql`SELECT ${sql.join(Array.from({ length: value }, (_, i) => sql`${i}::int`))}`.execute(
        db,
      );
    }
    expect(await preparedTexts(db)).toHaveLength(2);
  });

  it('prepares nothing with a limit of 0, for poolers that do not keep sessions', async () => {
    const db = oneSession(0);
    await selectId(db, 'a');
    await selectId(db, 'a');
    expect(await preparedTexts(db)).toEqual([]);
  });

  it('refuses a limit that is not a whole number', () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    expect(() => lazyBeginDialect(pool, { maxPreparedStatements: -1 })).toThrow(RangeError);
    expect(() => lazyBeginDialect(pool, { maxPreparedStatements: 1.5 })).toThrow(RangeError);
  });

  // The first statement of a transaction travels with BEGIN, and node-postgres
  // would count BEGIN's ParseComplete as the statement's own. If the
  // statement's Parse failed, the session would think it prepared a
  // statement the server never made: "prepared statement does not exist" on
  // every later use.
  it('runs a statement whose first Parse failed once its table exists', async () => {
    const db = oneSession();
    const insertLater = (id: string) =>
      db.transaction().execute((trx) => trx.insertInto('created_later').values({ id }).execute());
    await expect(insertLater('too-early')).rejects.toMatchObject({ code: '42P01' });
    await sql`CREATE TABLE created_later (id text PRIMARY KEY)`.execute(setup);
    await insertLater('in-time');
    await insertLater('again');
    const { rows } = await sql<{ id: string }>`SELECT id FROM created_later ORDER BY id`.execute(
      setup,
    );
    expect(rows.map((row) => row.id)).toEqual(['again', 'in-time']);
  });

  // pg closes the statement on the server when it cannot convert a value, and
  // still counts it as prepared on the session.
  it('runs a prepared statement again after a value it could not convert', async () => {
    const db = oneSession();
    const echo = (value: unknown) => sql<{ v: string }>`SELECT ${value}::text AS v`.execute(db);
    expect((await echo('before')).rows).toEqual([{ v: 'before' }]);
    const unconvertible = {
      toPostgres: () => {
        throw new Error('no text for this value');
      },
    };
    await expect(echo(unconvertible)).rejects.toThrow('no text for this value');
    expect((await echo('after')).rows).toEqual([{ v: 'after' }]);
  });

  it('fails a prepared SELECT * once after its table gained a column, then runs it again', async () => {
    const db = oneSession();
    const readAll = () =>
      db.selectFrom('grows_a_column').selectAll().where('id', '=', 'only').execute();
    expect(await readAll()).toEqual([{ id: 'only' }]);
    await sql`ALTER TABLE grows_a_column ADD COLUMN added text DEFAULT 'new'`.execute(setup);
    await expect(readAll()).rejects.toMatchObject({ code: '0A000' });
    expect(await readAll()).toEqual([{ id: 'only', added: 'new' }]);
  });

  it('keeps the session and its statement after a first statement fails on its data', async () => {
    const db = oneSession();
    await setup.insertInto('prepared_row').values({ id: 'taken' }).execute();
    const insert = (id: string) =>
      db.transaction().execute((trx) => trx.insertInto('prepared_row').values({ id }).execute());
    await insert('first');
    const { rows: before } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
    await expect(insert('taken')).rejects.toMatchObject({ code: '23505' });
    await insert('second');
    const { rows: after } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
    expect(after).toEqual(before);
    expect(await preparedTexts(db)).toContain('insert into "prepared_row" ("id") values ($1)');
  });
});
