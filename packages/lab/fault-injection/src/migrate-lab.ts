import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { labMigrations } from './migrations/index.js';
import type { LabTables } from './lab.tables.js';

/** Kysely's bookkeeping tables for the lab migrations, apart from the service's own. */
export const LAB_MIGRATION_TABLE = 'lab_migration';
export const LAB_MIGRATION_LOCK_TABLE = 'lab_migration_lock';

/**
 * Brings the lab tables up to date. A separate migration table keeps them out
 * of the service's migration history: the service's Migrator would otherwise
 * see migrations it does not know and refuse to run.
 */
export async function migrateLab(db: Kysely<LabTables>): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: () => Promise.resolve({ ...labMigrations }),
  };
  const { error, results } = await new Migrator({
    db,
    provider,
    migrationTableName: LAB_MIGRATION_TABLE,
    migrationLockTableName: LAB_MIGRATION_LOCK_TABLE,
  }).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const detail = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Lab migration ${failed ?? '(before any migration ran)'} failed: ${detail}`, {
      cause: error,
    });
  }
}
