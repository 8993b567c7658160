import type { Migrations } from '@effectively-once/postgres';
import * as createLabTables from './2026-12-03T00-00-create-lab-tables.js';

/**
 * The laboratory's tables. They are run by `migrateLab` with a migration table
 * of their own, never combined with a service's migrations: a database that
 * ran in lab mode once must still migrate normally without them.
 */
export const labMigrations: Migrations = {
  '2026-12-03T00-00-create-lab-tables': createLabTables,
};
