// The promise of the guardian: however the owning process ends, even by
// SIGKILL, no PostgreSQL server and no data directory is left behind.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { EPHEMERAL_DIR_PREFIX, removeStaleServers } from './stale-servers.js';

const OWNER = fileURLToPath(new URL('./owner-process.fixture.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

async function eventually(condition: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${String(timeoutMs)} ms`);
    await sleep(50);
  }
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

describe('the embedded server guardian', () => {
  it('stops the server and deletes its directory when the owning process is killed', async () => {
    const owner = spawn(process.execPath, ['--import', 'tsx', OWNER], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let started: { url: string; directory: string };
    try {
      started = await new Promise((resolve, reject) => {
        createInterface({ input: owner.stdout }).once('line', (line) =>
          resolve(JSON.parse(line) as never),
        );
        owner.once('exit', (code) => reject(new Error(`owner exited early with ${String(code)}`)));
      });
      expect(await accepts(started.url)).toBe(true);
      expect(existsSync(started.directory)).toBe(true);
    } finally {
      // The kill under test, and in any case: a failed step must not leave it running.
      owner.kill('SIGKILL');
    }

    await eventually(() => !existsSync(started.directory));
    expect(await accepts(started.url)).toBe(false);
  });

  it('sweeps a directory left by a guardian that itself died', async () => {
    const leftover = path.join(tmpdir(), `${EPHEMERAL_DIR_PREFIX}test-${String(process.pid)}`);
    await mkdir(path.join(leftover, 'data'), { recursive: true });
    // pid 2^22 + 1 is above Linux's pid_max default and so belongs to no process.
    await writeFile(path.join(leftover, 'owner.json'), JSON.stringify({ guardianPid: 4_194_305 }));

    await removeStaleServers();

    expect(existsSync(leftover)).toBe(false);
  });

  it('leaves alone a directory whose guardian is alive', async () => {
    const live = path.join(tmpdir(), `${EPHEMERAL_DIR_PREFIX}live-${String(process.pid)}`);
    await mkdir(live, { recursive: true });
    await writeFile(path.join(live, 'owner.json'), JSON.stringify({ guardianPid: process.pid }));

    try {
      await removeStaleServers();

      expect(existsSync(live)).toBe(true);
    } finally {
      await rm(live, { recursive: true, force: true });
    }
  });
});
