import type { Migrations } from '@effectively-once/postgres';
import * as createOutbox from './2026-12-01T00-00-create-outbox.js';

/** Every service database that emits events runs these; combine them with its own (combineMigrations). */
export const outboxMigrations: Migrations = {
  '2026-12-01T00-00-create-outbox': createOutbox,
};
