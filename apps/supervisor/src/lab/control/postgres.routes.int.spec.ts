// The postgres topic: a real embedded server restarted in immediate mode, one
// that crashed and is not back yet, and a server from DATABASE_URL refused
// with a problem document.
import { connect, startPostgres, type PostgresServer } from '@effectively-once/postgres';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { supervisePostgres } from '../../supervised-postgres.js';
import { postgresRoutes } from './postgres.routes.js';
import { buildLabControlApp } from './server.js';

const token = 'lab-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };
const say = (): void => undefined;

describe('POST /lab/postgres/restart on the embedded server', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    // The embedded server whatever the run uses: the lab must own what it stops.
    server = await startPostgres({ durability: 'fast-for-tests', env: {} });
  });
  afterAll(() => server.stop());

  it('given a running server, then it answers once the server is back, after the pause it asked for', async () => {
    const app = buildLabControlApp({ token, routes: [postgresRoutes({ postgres: server, say })] });
    const response = await app.inject({
      method: 'POST',
      url: '/lab/postgres/restart',
      headers: auth,
      payload: { downMs: 300 },
    });
    await app.close();
    expect(response.statusCode).toBe(200);
    const body = response.json<{ stoppedAt: string; startedAt: string; mode: string }>();
    expect(body.mode).toBe('immediate');
    expect(Date.parse(body.startedAt) - Date.parse(body.stoppedAt)).toBeGreaterThanOrEqual(300);
    const db = connect<unknown>(server.adminUrl, { maxConnections: 1 });
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    await db.destroy();
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('given a server that crashed and is not started again yet, then it is restarting and a restart is refused', async () => {
    const recovery = server.crashRecovery;
    if (recovery?.pid === undefined)
      throw new Error('An embedded server has a running postmaster.');
    // A pause longer than the test: the crash is heard, the start not made yet.
    const policy = { initialDelayMs: 600_000, maxDelayMs: 600_000, stableAfterMs: 600_000 };
    const supervised = supervisePostgres({
      recovery,
      policy,
      onEvent: () => undefined,
      onStartFailed: () => undefined,
    });
    const app = buildLabControlApp({
      token,
      routes: [postgresRoutes({ postgres: server, say, supervised })],
    });
    try {
      process.kill(recovery.pid, 'SIGKILL');
      await vi.waitFor(() => expect(supervised.state).toBe('restarting'), { timeout: 30_000 });

      const status = await app.inject({ method: 'GET', url: '/lab/postgres', headers: auth });
      const restart = await app.inject({
        method: 'POST',
        url: '/lab/postgres/restart',
        headers: auth,
        payload: { downMs: 0 },
      });

      expect(status.json()).toEqual({ kind: 'embedded', state: 'restarting' });
      expect(restart.statusCode).toBe(409);
      expect(restart.json()).toMatchObject({ code: 'POSTGRES_RESTARTING' });
    } finally {
      supervised.stop();
      await app.close();
    }
  });
});

describe('POST /lab/postgres/restart on DATABASE_URL', () => {
  it('given a server the supervisor did not start, then 409 POSTGRES_NOT_EMBEDDED and nothing is stopped', async () => {
    const external = await startPostgres({
      env: { DATABASE_URL: 'postgres://someone:secret@db.example:5432/postgres' },
    });
    const app = buildLabControlApp({
      token,
      routes: [postgresRoutes({ postgres: external, say })],
    });
    const response = await app.inject({
      method: 'POST',
      url: '/lab/postgres/restart',
      headers: auth,
      payload: { downMs: 1000 },
    });
    const status = await app.inject({ method: 'GET', url: '/lab/postgres', headers: auth });
    await app.close();
    expect(response.statusCode).toBe(409);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'POSTGRES_NOT_EMBEDDED' });
    expect(status.json()).toEqual({ kind: 'external', state: 'running' });
  });
});
