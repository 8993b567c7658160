import type { Migrations } from '@effectively-once/postgres';
import * as createProcessedMessage from './2026-11-30T00-00-create-processed-message.js';

/** Every service database that consumes messages runs these. */
export const idempotencyMigrations: Migrations = {
  '2026-11-30T00-00-create-processed-message': createProcessedMessage,
};
