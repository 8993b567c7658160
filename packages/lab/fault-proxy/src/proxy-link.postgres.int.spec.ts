// The link in front of a real PostgreSQL server, through a real pg pool: what
// a service's database connections see under each fault.
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openLink, type ProxyLink } from './proxy-link.js';

let link: ProxyLink;
let db: Kysely<unknown>;

beforeAll(async () => {
  const { url } = await createTestDatabase<unknown>({});
  const direct = new URL(url);
  link = await openLink({
    name: 'test-postgres',
    upstream: { host: direct.hostname, port: Number(direct.port) },
  });
  const proxied = new URL(url);
  proxied.hostname = link.address.host;
  proxied.port = String(link.address.port);
  db = connect(proxied.toString(), { maxConnections: 2 });
});

afterEach(() => link.clear());
afterAll(async () => {
  await db.destroy();
  await link.close();
});

const selectOne = async (): Promise<number> => {
  const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
  return rows[0]?.one ?? 0;
};

const timed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
};

describe('a PostgreSQL link', () => {
  it('without faults, then queries go through it and its bytes are counted', async () => {
    expect(await selectOne()).toBe(1);
    expect(link.stats().bytesDown).toBeGreaterThan(0);
  });

  it('given 100 ms of latency, then each query takes at least a round trip of it', async () => {
    await selectOne();
    link.apply({ kind: 'latency', delayMs: 100, durationMs: 10_000 });
    const { value, ms } = await timed(selectOne());
    expect(value).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(195);
  });

  it('given a reset, then a transaction open on it fails and is rolled back; once the window passes the pool connects again', async () => {
    const failure = db
      .transaction()
      .execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        link.apply({ kind: 'reset', durationMs: 300 });
        await sql`SELECT pg_sleep(0.05)`.execute(trx);
      })
      .then(
        () => 'committed',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    expect(await failure).not.toBe('committed');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await selectOne()).toBe(1);
  });

  it('given a blackhole of 800 ms, then a query stalls, then completes with its answer: nothing lost', async () => {
    await selectOne();
    link.apply({ kind: 'blackhole', durationMs: 800 });
    const { value, ms } = await timed(selectOne());
    expect(value).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(750);
  });

  it('given refuse, then the pooled connection is reset, a new one is refused, and after it queries succeed', async () => {
    await selectOne();
    link.apply({ kind: 'refuse', durationMs: 500 });
    const outcome = () =>
      selectOne().then(
        () => 'connected',
        (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error),
      );
    // The pool may hand out its idle connection before it hears of the reset:
    // that query fails with ECONNRESET; the next one must open a connection.
    const first = await outcome();
    const second = first === 'ECONNREFUSED' ? first : await outcome();
    expect(['ECONNRESET', 'ECONNREFUSED']).toContain(first);
    expect(second).toBe('ECONNREFUSED');
    await new Promise((resolve) => setTimeout(resolve, 550));
    expect(await selectOne()).toBe(1);
  });
});
