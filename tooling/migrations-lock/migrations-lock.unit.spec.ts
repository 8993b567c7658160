import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LOCK_FILE,
  checkMigrations,
  findMigrations,
  lockNewMigrations,
  readLock,
} from './migrations-lock.js';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const MIGRATIONS = 'apps/demo/src/adapters/postgres/migrations';
const CREATE = `${MIGRATIONS}/2026-01-01T00-00-create-demo.ts`;
const ADD_COLUMN = `${MIGRATIONS}/2026-01-02T00-00-add-demo-note.ts`;

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

/** Given: a fork with these files, written under a fresh temporary root. */
async function givenFork(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'migrations-lock-'));
  roots.push(root);
  await mkdir(path.join(root, 'tooling'), { recursive: true });
  for (const [file, text] of Object.entries(files)) await write(root, file, text);
  return root;
}

async function write(root: string, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

const createDemo = "await db.schema.createTable('demo').addColumn('id', 'uuid').execute();\n";

describe('the migrations lock', () => {
  it('finds timestamp-named migrations only, not their index or specs', async () => {
    const root = await givenFork({
      [CREATE]: createDemo,
      [`${MIGRATIONS}/index.ts`]: 'export const migrations = {};\n',
      [`${MIGRATIONS}/add-demo-note.int.spec.ts`]: 'it.todo("x");\n',
      ['apps/demo/node_modules/x/migrations/2026-01-01T00-00-vendored.ts']: '',
    });

    expect(await findMigrations(root)).toEqual([CREATE]);
  });

  it('passes when every migration matches its locked hash', async () => {
    const root = await givenFork({ [CREATE]: createDemo });
    expect(await lockNewMigrations(root)).toEqual({ added: [CREATE], problems: [] });

    expect(await checkMigrations(root, await readLock(root))).toEqual([]);
  });

  it('fails when a released migration is edited, and the lock command does not accept the edit', async () => {
    const root = await givenFork({ [CREATE]: createDemo });
    await lockNewMigrations(root);
    const lockBefore = await readFile(path.join(root, LOCK_FILE), 'utf8');

    await write(root, CREATE, createDemo.replace("'uuid'", "'text'"));

    expect(await checkMigrations(root, await readLock(root))).toEqual([
      { kind: 'edited', file: CREATE },
    ]);
    expect(await lockNewMigrations(root)).toEqual({
      added: [],
      problems: [{ kind: 'edited', file: CREATE }],
    });
    expect(await readFile(path.join(root, LOCK_FILE), 'utf8')).toBe(lockBefore);
  });

  it('fails when a released migration is removed', async () => {
    const root = await givenFork({ [CREATE]: createDemo });
    await lockNewMigrations(root);

    await rm(path.join(root, CREATE));

    expect(await checkMigrations(root, await readLock(root))).toEqual([
      { kind: 'removed', file: CREATE },
    ]);
  });

  it('fails on a new migration until the lock command adds it', async () => {
    const root = await givenFork({ [CREATE]: createDemo });
    await lockNewMigrations(root);
    await write(
      root,
      ADD_COLUMN,
      "await db.schema.alterTable('demo').addColumn('note', 'text').execute();\n",
    );

    expect(await checkMigrations(root, await readLock(root))).toEqual([
      { kind: 'unlocked', file: ADD_COLUMN },
    ]);
    expect(await lockNewMigrations(root)).toEqual({ added: [ADD_COLUMN], problems: [] });
    expect(await checkMigrations(root, await readLock(root))).toEqual([]);
  });

  it("hashes a checkout's CRLF line endings like LF", async () => {
    const root = await givenFork({ [CREATE]: createDemo });
    await lockNewMigrations(root);

    await write(root, CREATE, createDemo.replaceAll('\n', '\r\n'));

    expect(await checkMigrations(root, await readLock(root))).toEqual([]);
  });

  it("matches this repository's migrations with tooling/migrations.lock.json", async () => {
    const lock = await readLock(repositoryRoot);

    expect(Object.keys(lock.migrations).length).toBeGreaterThan(0);
    expect(await checkMigrations(repositoryRoot, lock)).toEqual([]);
  });
});
