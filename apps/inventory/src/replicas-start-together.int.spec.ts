// Two inventory replicas deployed without the supervisor, started at the same
// moment as two OS processes against databases nobody prepared: both migrate
// their shared service database and the shared event store at start, one of
// them applies each schema under the migrator's lock and the other finds it
// done, and both become ready (docs/deploy.md, "Who migrates"). Two sessions
// in one process would race the same lock; two processes are what a
// Deployment with two pods does.
import { spawn, type ChildProcess } from 'node:child_process';
import { eventStoreMigrations } from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inventoryDatabaseMigrations } from './adapters/postgres/inventory-database-migrations.js';

const SERVER = new URL('./server.ts', import.meta.url).pathname;
const READY_TIMEOUT_MS = 60_000;

const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
          }
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
});

/** An inventory process on a free port; resolves with its port once it logs that it listens. */
function startReplica(env: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no "listening" line within ${String(READY_TIMEOUT_MS)} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const listening = /Server listening at http:\/\/[^:]+:(\d+)/.exec(output);
      if (listening?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${String(code ?? signal)}) before listening:\n${output}`));
    });
  });
}

describe('two inventory replicas started at once on fresh databases', () => {
  it('both migrate, neither fails on the other, and each schema is applied once', async () => {
    // Given an event-store database and a service database with no schema at all
    const events = await createTestDatabase({});
    const inventory = await createTestDatabase({});
    const env = { DATABASE_URL: inventory.url, EVENT_STORE_DATABASE_URL: events.url };

    // When two processes start at the same moment
    const ports = await Promise.all([startReplica(env), startReplica(env)]);

    // Then both answer ready
    for (const port of ports) {
      await vi.waitFor(
        async () => {
          const ready = await fetch(`http://127.0.0.1:${String(port)}/ready`);
          expect(ready.status).toBe(200);
        },
        { timeout: READY_TIMEOUT_MS, interval: 100 },
      );
    }
    // And each migration of each schema is recorded once (its name is the table's key, so a
    // second apply would have failed one process; a missing one would show here)
    const applied = async (db: typeof events.db): Promise<string[]> =>
      (
        await db
          .selectFrom(sql<{ name: string }>`kysely_migration`.as('migration'))
          .select('name')
          .execute()
      )
        .map((row) => row.name)
        .sort();
    expect(await applied(events.db)).toEqual(Object.keys(eventStoreMigrations).sort());
    expect(await applied(inventory.db)).toEqual(Object.keys(inventoryDatabaseMigrations).sort());
  });
});
