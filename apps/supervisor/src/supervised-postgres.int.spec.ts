// A crash of the embedded server, on a real server of its own: its postmaster
// killed with SIGKILL (no shutdown at all, its backends left to notice), and
// the supervisor starts it again on the same port and data, through crash
// recovery, with longer pauses while it keeps dying.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { connect, startEmbeddedPostgres, type EmbeddedPostgres } from '@effectively-once/postgres';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RestartPolicy } from './restart-policy.js';
import type { ProcessEvent } from './supervised-process.js';
import { supervisePostgres, type SupervisedPostgres } from './supervised-postgres.js';

// Stable only after 10 minutes: however slow the machine, the second death counts as quick.
const POLICY: RestartPolicy = { initialDelayMs: 100, maxDelayMs: 2_000, stableAfterMs: 600_000 };
/** Crash recovery and a start on a busy machine: waited for by condition, never by time. */
const BACK_WITHIN = { timeout: 60_000, interval: 100 };

let server: EmbeddedPostgres;
let supervised: SupervisedPostgres;
const events: ProcessEvent[] = [];
const failedStarts: string[] = [];

beforeAll(async () => {
  server = await startEmbeddedPostgres({ durability: 'fast-for-tests' });
  supervised = supervisePostgres({
    recovery: server.crashRecovery,
    policy: POLICY,
    onEvent: (event) => events.push(event),
    onStartFailed: ({ message }) => failedStarts.push(message),
  });
}, 120_000);
afterAll(async () => {
  supervised.stop();
  await server.stop();
});

/** The running postmaster, as PostgreSQL itself records it: the first line of postmaster.pid. */
async function postmasterPid(): Promise<number | undefined> {
  const file = path.join(server.directory, 'data', 'postmaster.pid');
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number(text.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** On a connection of its own: one opened before the crash would be cut by it. */
async function query<Row>(statement: RawBuilder<Row>): Promise<Row[]> {
  const db = connect<unknown>(server.url, { maxConnections: 1 });
  try {
    return (await statement.execute(db)).rows;
  } finally {
    await db.destroy();
  }
}

/** SIGKILLs the running postmaster; resolves with the pid of the one that took over, accepting connections. */
async function killAndWaitForNext(): Promise<{ killed: number; next: number }> {
  const killed = await postmasterPid();
  if (killed === undefined) throw new Error('No postmaster.pid: the server is not running.');
  process.kill(killed, 'SIGKILL');
  const next = await vi.waitFor(async () => {
    const pid = await postmasterPid();
    expect(pid).not.toBe(killed);
    await query(sql`SELECT 1`);
    return pid ?? -1;
  }, BACK_WITHIN);
  return { killed, next };
}

describe('supervisePostgres', () => {
  it(
    'starts a server whose postmaster was SIGKILLed again, on its port, with every committed row',
    { timeout: 90_000 },
    async () => {
      await query(sql`CREATE TABLE kept AS SELECT 'committed before the crash' AS note`);

      const { killed, next } = await killAndWaitForNext();

      expect(await query(sql`SELECT note FROM kept`)).toEqual([
        { note: 'committed before the crash' },
      ]);
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'exited',
          name: 'postgres',
          pid: killed,
          signal: 'SIGKILL',
        }),
      );
      expect(events.at(-1)).toEqual({ type: 'started', name: 'postgres', pid: next });
      expect(server.crashRecovery.pid).toBe(next);
      expect(supervised.state).toBe('running');
    },
  );

  it(
    'waits longer before each start while the server keeps dying',
    { timeout: 90_000 },
    async () => {
      await killAndWaitForNext();

      const pauses = events.flatMap((event) =>
        event.type === 'exited' ? [event.restartInMs] : [],
      );
      expect(pauses.length).toBeGreaterThanOrEqual(2);
      // Failed starts (its children still holding the old shared memory) add pauses of their own.
      expect(pauses.at(-1)).toBeGreaterThan(pauses[0] ?? Infinity);
      expect(await query(sql`SELECT count(*)::int AS rows FROM kept`)).toEqual([{ rows: 1 }]);
    },
  );
});
