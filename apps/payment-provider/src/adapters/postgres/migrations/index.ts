import type { Migrations } from '@effectively-once/postgres';
import * as createProviderTables from './2026-12-01T00-00-create-provider-tables.js';
import * as captureAndClosedKeys from './2026-12-20T00-00-capture-and-closed-keys.js';

/** The payment provider's database, run at start by migrateToLatest. */
export const providerMigrations: Migrations = {
  '2026-12-01T00-00-create-provider-tables': createProviderTables,
  '2026-12-20T00-00-capture-and-closed-keys': captureAndClosedKeys,
};
