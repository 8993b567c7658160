// The readiness checks every service runs: its own database and the event
// store, each asked the cheapest question that proves it answers, and its
// consumers, each subscribed to its group: `pnpm start` says ready, and the
// gateway's /api/health 200, only once an order placed then would go through.
import type { EventStore } from '@effectively-once/event-store';
import { sql, type QueryExecutorProvider } from 'kysely';

/**
 * The `checks` of registerHealthRoutes for a service with a database and an
 * event store: `database` runs `select 1`, `eventStore` reads one event of
 * `<service>-readiness-probe`, a stream nobody writes, so the probe proves the
 * store answers without touching real data, and fails while a started
 * consumer holds no subscription (before its first, between reconnects).
 *
 * @example
 * registerHealthRoutes(app, { checks: serviceReadinessChecks({ service: 'payment', db, store }) });
 */
export function serviceReadinessChecks(input: {
  service: string;
  /** Any Kysely instance, whatever its tables. */
  db: QueryExecutorProvider;
  store: Pick<EventStore, 'readStream'>;
  /** The started consumers not subscribed now (ServiceMetrics.unsubscribedConsumers). */
  unsubscribedConsumers?: () => readonly string[];
}): Record<'database' | 'eventStore', () => Promise<void>> {
  const probeStream = `${input.service}-readiness-probe`;
  return {
    database: async () => {
      await sql`select 1`.execute(input.db);
    },
    // The consumers' subscriptions are to the store too: part of this check.
    eventStore: async () => {
      await input.store.readStream(probeStream, { maxCount: 1 });
      const waiting = input.unsubscribedConsumers?.() ?? [];
      if (waiting.length > 0) {
        throw new Error(`consumers not subscribed yet: ${waiting.join(', ')}`);
      }
    },
  };
}
