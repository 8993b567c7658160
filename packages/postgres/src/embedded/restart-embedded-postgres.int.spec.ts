// The failure lab's database outage, on a server of its own: stopped in
// immediate mode under an open session, down for a while, back on the same
// port with every committed row.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './start-embedded-postgres.js';

async function openClient(url: string): Promise<{ client: pg.Client; errors: Error[] }> {
  const client = new pg.Client({ connectionString: url });
  const errors: Error[] = [];
  client.on('error', (error) => errors.push(error));
  await client.connect();
  return { client, errors };
}

async function startTime(url: string): Promise<string> {
  const { client } = await openClient(url);
  try {
    const { rows } = await client.query<{ at: string }>(
      'SELECT pg_postmaster_start_time()::text AS at',
    );
    return rows[0]?.at ?? '';
  } finally {
    await client.end();
  }
}

/** The first refused connection within `timeoutMs`, or a failure saying none came. */
async function refusedWithin(url: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { client } = await openClient(url);
      await client.end();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // "shutting down" comes first, while the server still accepts the socket.
      if (/ECONNREFUSED|connect/.test(message)) return message;
    }
    if (Date.now() > deadline)
      throw new Error(`No connection was refused within ${String(timeoutMs)} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('EmbeddedPostgres.restart', () => {
  it(
    'cuts open sessions, refuses connections while down, and comes back with the committed data',
    { timeout: 120_000 },
    async () => {
      const server = await startEmbeddedPostgres({ durability: 'fast-for-tests' });
      try {
        const { client: open, errors } = await openClient(server.url);
        await open.query("CREATE TABLE kept AS SELECT 'committed' AS note");
        const before = await startTime(server.url);

        const restarting = server.restart({ downMs: 5_000 });
        // While it is down, a new connection is refused outright: polled, since
        // how long the stop itself takes depends on how busy the machine is.
        expect(await refusedWithin(server.url, 4_000)).toMatch(/ECONNREFUSED|connect/);
        const restart = await restarting;

        expect(errors.length).toBeGreaterThan(0);
        expect(
          Date.parse(restart.startedAt) - Date.parse(restart.stoppedAt),
        ).toBeGreaterThanOrEqual(5_000);
        expect(await startTime(server.url)).not.toBe(before);
        const { client } = await openClient(server.url);
        const { rows } = await client.query('SELECT note FROM kept');
        await client.end();
        expect(rows).toEqual([{ note: 'committed' }]);
        await open.end().catch(() => undefined);
      } finally {
        await server.stop();
      }
    },
  );
});
