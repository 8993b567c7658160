// The readiness checks every service runs: its own database and the event
// store, each asked the cheapest question that proves it answers.
import type { EventStore } from '@effectively-once/event-store';
import { sql, type QueryExecutorProvider } from 'kysely';

/**
 * The `checks` of registerHealthRoutes for a service with a database and an
 * event store: `database` runs `select 1`, `eventStore` reads one event of
 * `<service>-readiness-probe`, a stream nobody writes, so the probe proves the
 * store answers without touching real data.
 *
 * @example
 * registerHealthRoutes(app, { checks: serviceReadinessChecks({ service: 'payment', db, store }) });
 */
export function serviceReadinessChecks(input: {
  service: string;
  /** Any Kysely instance, whatever its tables. */
  db: QueryExecutorProvider;
  store: Pick<EventStore, 'readStream'>;
}): Record<'database' | 'eventStore', () => Promise<void>> {
  const probeStream = `${input.service}-readiness-probe`;
  return {
    database: async () => {
      await sql`select 1`.execute(input.db);
    },
    eventStore: async () => {
      await input.store.readStream(probeStream, { maxCount: 1 });
    },
  };
}
