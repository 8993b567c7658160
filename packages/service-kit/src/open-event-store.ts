import type { EventStore, EventStoreConfig } from '@effectively-once/event-store';
import { loadEmbeddedEventStore } from './embedded-event-store.js';

/**
 * The composition root's one call: EventStoreDB when the configuration names
 * a server, otherwise the embedded store in the given PostgreSQL database.
 * Each back end is imported only when it is the one configured: a process on
 * the embedded store never loads the EventStoreDB client (gRPC, protobuf), and
 * the embedded store is reached only through embedded-event-store.js, which
 * the TypeScript build does not follow, so a fork that runs on EventStoreDB
 * can delete that package (its README.md).
 *
 * @example
 * const store = await openEventStore({ config: loadEventStoreConfig(), postgresUrl });
 */
export async function openEventStore(input: {
  config: EventStoreConfig;
  postgresUrl: string;
}): Promise<EventStore> {
  const { config } = input;
  switch (config.backend) {
    case 'eventstoredb': {
      const { createEventStoreDBEventStore } =
        await import('@effectively-once/event-store/eventstoredb');
      return createEventStoreDBEventStore({
        connectionString: config.connectionString,
        maxEventBytes: config.maxEventBytes,
      });
    }
    case 'postgres': {
      const { createPostgresEventStore } = await loadEmbeddedEventStore();
      return createPostgresEventStore({
        url: input.postgresUrl,
        maxEventBytes: config.maxEventBytes,
        pollIntervalMs: config.pollIntervalMs,
        ackDelayMs: config.ackDelayMs,
        wakeConsumers: config.wakeConsumers,
        idleCheck: config.idleCheck,
        notifyChannels: config.notifyChannels,
        maxConnections: config.maxConnections,
      });
    }
  }
}
