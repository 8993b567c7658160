// Every database of the stack exists and the embedded event store's schema is
// migrated before any process starts. Each service migrates that schema again
// at start (a no-op after this, under the migrator's lock), which is what a
// deployment without the supervisor relies on; here it is done first so a
// process that reads the store but is not a service finds it ready.
import { eventStoreMigrations } from '@effectively-once/event-store-postgres';
import { connect, createDatabase, migrateToLatest } from '@effectively-once/postgres';
import { DATABASE_SUFFIXES as SUFFIX, type DatabaseUrls } from './stack.js';

/**
 * Creates the stack's databases where missing and returns their URLs.
 *
 * @example
 * const databases = await prepareDatabases({ adminUrl: server.adminUrl, prefix: 'eo_', migrateEventStore: true });
 */
export async function prepareDatabases(input: {
  adminUrl: string;
  prefix: string;
  migrateEventStore: boolean;
}): Promise<DatabaseUrls> {
  const create = (suffix: string): Promise<string> =>
    createDatabase(input.adminUrl, `${input.prefix}${suffix}`);
  const [order, inventory, payment, notification, paymentProvider, eventStore] = await Promise.all([
    create(SUFFIX.order),
    create(SUFFIX.inventory),
    create(SUFFIX.payment),
    create(SUFFIX.notification),
    create(SUFFIX.paymentProvider),
    create(SUFFIX.eventStore),
  ]);
  const databases = { order, inventory, payment, notification, paymentProvider, eventStore };
  if (input.migrateEventStore) {
    const db = connect(databases.eventStore, { maxConnections: 1, applicationName: 'supervisor' });
    try {
      await migrateToLatest(db, eventStoreMigrations);
    } finally {
      await db.destroy();
    }
  }
  return databases;
}
