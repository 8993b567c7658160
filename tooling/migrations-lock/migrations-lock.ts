// A released migration is never edited: a database that already ran it will
// not run it again, so an edit splits the fleet into databases that have the
// old schema and databases that have the new one. The lock file holds a hash
// of every migration as it was released; the check compares the files with
// it, and a new migration joins the lock through `pnpm migrations:lock`.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** `2026-12-01T00-20-create-inventory.ts`: the names the migrators order by. */
const MIGRATION_FILE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[\w.-]+\.(?:ts|sql)$/;
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.data', 'dist']);

export const LOCK_FILE = 'tooling/migrations.lock.json';

export interface Lock {
  $comment?: string;
  migrations: Record<string, string>;
}

const HASH = /^sha256:[0-9a-f]{64}$/;

/**
 * The lock as read from disk. Checked by hand rather than with zod: the root
 * package has no runtime dependencies, and the shape is two fields.
 */
function parseLock(text: string): Lock {
  const parsed: unknown = JSON.parse(text);
  const migrations: unknown =
    typeof parsed === 'object' && parsed !== null && 'migrations' in parsed
      ? parsed.migrations
      : undefined;
  if (typeof migrations !== 'object' || migrations === null) {
    throw new Error(`${LOCK_FILE}: expected an object with a "migrations" map.`);
  }
  const entries = Object.entries(migrations);
  for (const [file, hash] of entries) {
    if (typeof hash !== 'string' || !HASH.test(hash)) {
      throw new Error(`${LOCK_FILE}: ${file} has no "sha256:<64 hex>" hash.`);
    }
  }
  return { migrations: Object.fromEntries(entries) };
}

export type LockProblem =
  | { kind: 'edited'; file: string }
  | { kind: 'removed'; file: string }
  | { kind: 'unlocked'; file: string };

const isMigration = (file: string): boolean =>
  path.basename(path.dirname(file)) === 'migrations' &&
  MIGRATION_FILE.test(path.basename(file)) &&
  !file.endsWith('.spec.ts');

/** Every migration under `root`, as sorted POSIX paths relative to it. */
export async function findMigrations(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(path.join(root, directory), { withFileTypes: true })) {
      const relative = path.posix.join(directory, entry.name);
      if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) await walk(relative);
      else if (entry.isFile() && isMigration(relative)) found.push(relative);
    }
  };
  await walk('');
  return found.sort();
}

/** Line endings are normalised, so a checkout with CRLF conversion hashes the same. */
export async function hashMigration(root: string, file: string): Promise<string> {
  const text = (await readFile(path.join(root, file), 'utf8')).replaceAll('\r\n', '\n');
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

export async function readLock(root: string): Promise<Lock> {
  try {
    return parseLock(await readFile(path.join(root, LOCK_FILE), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { migrations: {} };
    throw error;
  }
}

/** What differs between the migrations on disk and the lock; empty when they agree. */
export async function checkMigrations(root: string, lock: Lock): Promise<LockProblem[]> {
  const onDisk = await findMigrations(root);
  const problems: LockProblem[] = [];
  for (const file of onDisk) {
    const locked = lock.migrations[file];
    if (locked === undefined) problems.push({ kind: 'unlocked', file });
    else if (locked !== (await hashMigration(root, file))) problems.push({ kind: 'edited', file });
  }
  for (const file of Object.keys(lock.migrations)) {
    if (!onDisk.includes(file)) problems.push({ kind: 'removed', file });
  }
  return problems;
}

/**
 * Adds the migrations that are not in the lock yet and writes it. An edited
 * or removed migration is not "fixed" here: it comes back as a problem, and
 * the lock is left as it was.
 */
export async function lockNewMigrations(
  root: string,
): Promise<{ added: string[]; problems: LockProblem[] }> {
  const lock = await readLock(root);
  const problems = await checkMigrations(root, lock);
  const refused = problems.filter((problem) => problem.kind !== 'unlocked');
  if (refused.length > 0) return { added: [], problems: refused };
  const added = problems.map((problem) => problem.file);
  const migrations = { ...lock.migrations };
  for (const file of added) migrations[file] = await hashMigration(root, file);
  const sorted = Object.fromEntries(
    Object.entries(migrations).sort(([a], [b]) => a.localeCompare(b)),
  );
  const next: Lock = { $comment: LOCK_COMMENT, migrations: sorted };
  await writeFile(path.join(root, LOCK_FILE), `${JSON.stringify(next, null, 2)}\n`);
  return { added, problems: [] };
}

const LOCK_COMMENT =
  'Content hashes of released migrations. Never edit an entry: write a new migration. Add new ones with `pnpm migrations:lock` (docs/fitness-rules.md).';

/** One line per problem, saying what to do about it. */
export function describeProblem(problem: LockProblem): string {
  switch (problem.kind) {
    case 'edited':
      return `${problem.file}: a released migration was edited. Databases that ran it will not run it again; restore it and write a new migration for the change.`;
    case 'removed':
      return `${problem.file}: a released migration was removed. Databases that ran it keep its schema; restore it, and undo it with a new migration if needed.`;
    case 'unlocked':
      return `${problem.file}: a new migration is not in ${LOCK_FILE}. Run \`pnpm migrations:lock\` and commit the lock with it.`;
  }
}
