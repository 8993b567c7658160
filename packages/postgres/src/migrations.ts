import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/** Migrations by name; names sort in the order they must run (timestamp prefixes). */
export type Migrations = Readonly<Record<string, Migration>>;

/**
 * Joins the migration sets of several packages into one database's set,
 * refusing two migrations with the same name (one would silently shadow the other).
 */
export function combineMigrations(...sets: Migrations[]): Migrations {
  const combined: Record<string, Migration> = {};
  for (const set of sets) {
    for (const [name, migration] of Object.entries(set)) {
      if (name in combined) throw new Error(`Two migrations are named "${name}".`);
      combined[name] = migration;
    }
  }
  return combined;
}

/**
 * Brings the database up to the newest migration with Kysely's Migrator, which
 * takes a lock so that two processes starting together migrate once.
 */
export async function migrateToLatest(db: Kysely<unknown>, migrations: Migrations): Promise<void> {
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve({ ...migrations }) };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const detail = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Migration ${failed ?? '(before any migration ran)'} failed: ${detail}`, {
      cause: error,
    });
  }
}
