import type { Migrations } from '@effectively-once/postgres';
import * as createEventStore from './2026-11-30T01-00-create-event-store.js';

/** The embedded event store's tables; run them in the database that holds the store. */
export const eventStoreMigrations: Migrations = {
  '2026-11-30T01-00-create-event-store': createEventStore,
};
