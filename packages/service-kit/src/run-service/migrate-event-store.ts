// The embedded event store's schema, migrated by the service itself at start,
// so a service deployed without the supervisor (a container, a replica) works
// against a fresh database. Every service and replica shares that database, so
// several may start at once: Kysely's migrator holds a PostgreSQL advisory lock
// (per database) while it migrates, the first one in applies what is missing,
// and the others wait for the lock and find nothing left to do. The embedded
// store is loaded only when it is configured, through a door the TypeScript
// build does not follow, so a fork on EventStoreDB can delete its package
// (packages/event-store-postgres/README.md).
import { connect, migrateToLatest } from '@effectively-once/postgres';
import type { ServiceConfig } from '../config.js';
import { loadEmbeddedEventStore } from '../embedded-event-store.js';

/**
 * Brings the embedded store's schema up to date; nothing with EventStoreDB,
 * whose server owns its own storage.
 *
 * @example
 * await migrateEventStore(config);
 */
export async function migrateEventStore(config: ServiceConfig): Promise<void> {
  if (config.eventStore.backend !== 'postgres' || config.eventStoreDatabaseUrl === undefined) {
    return;
  }
  const { eventStoreMigrations } = await loadEmbeddedEventStore();
  // A connection of its own, closed at once: the store's pools are sized for deliveries.
  const db = connect(config.eventStoreDatabaseUrl, {
    maxConnections: 1,
    applicationName: `${config.service}-migrations`,
  });
  try {
    await migrateToLatest(db, eventStoreMigrations);
  } finally {
    await db.destroy();
  }
}
