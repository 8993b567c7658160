import type { Migrations } from '@effectively-once/postgres';
import * as createInventory from './2026-12-01T00-20-create-inventory.js';

/** The inventory service's own tables; server.ts combines them with the marker and outbox tables. */
export const inventoryMigrations: Migrations = {
  '2026-12-01T00-20-create-inventory': createInventory,
};
