// The embedded event store: the event-store port on PostgreSQL, for
// development and tests. Opened through the service kit's openEventStore when
// no EventStoreDB server is configured; its schema is migrated by whoever owns
// the database (the kit's migrate-event-store.ts, the supervisor, the image's migrate step).
export type { EventStoreTables } from './event-store.tables.js';
export { eventStoreMigrations } from './migrations/index.js';
export {
  createPostgresEventStore,
  type PostgresEventStoreOptions,
} from './postgres-event-store.js';
