// A session the server ends while the pool has lent it out (an operator's
// pg_terminate_backend, a restart, a failover). node-postgres emits 'error'
// on such a client, and a lent-out client has no listener of the pool's: the
// process would die of an unhandled 'error' event (found by the
// backend-terminated scenario, which crashed payment and notification).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './testing/test-database.js';

const { db: admin, connect } = await createTestDatabase<unknown>({});

async function waitUntilGone(pid: number): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid}`.execute(admin);
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Backend ${String(pid)} did not end.`);
}

describe('a session terminated while lent out', () => {
  it('fails only the work on it: the process lives, and the next query gets a new session', async () => {
    const db = connect({ maxConnections: 1, applicationName: 'terminated-session' });
    const failed = await db
      .connection()
      .execute(async (connection) => {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(
          connection,
        );
        const pid = rows[0]?.pid ?? -1;
        await sql`SELECT pg_terminate_backend(${pid})`.execute(admin);
        await waitUntilGone(pid);
        // Time for the server's FATAL message and the closed socket to arrive
        // while no query runs: the moment the unhandled 'error' used to kill us.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await sql`SELECT 1`.execute(connection);
        return { pid, error: undefined };
      })
      .catch((error: unknown) => ({ pid: undefined, error }));
    expect(failed.error).toBeInstanceOf(Error);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
