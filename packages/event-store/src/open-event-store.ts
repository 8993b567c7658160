import type { EventStoreConfig } from './config.js';
import type { EventStore } from './port/event-store.js';
import { createPostgresEventStore } from './postgres/postgres-event-store.js';

/**
 * The composition root's one call: EventStoreDB when the configuration names
 * a server, otherwise the embedded store in the given PostgreSQL database.
 * The EventStoreDB client (gRPC, protobuf) is imported only when it is the
 * one configured, so a process on the embedded store never pays for loading it.
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
        await import('./eventstoredb/eventstoredb-event-store.js');
      return createEventStoreDBEventStore({
        connectionString: config.connectionString,
        maxEventBytes: config.maxEventBytes,
      });
    }
    case 'postgres':
      return createPostgresEventStore({
        url: input.postgresUrl,
        maxEventBytes: config.maxEventBytes,
        pollIntervalMs: config.pollIntervalMs,
        ackDelayMs: config.ackDelayMs,
        wakeConsumers: config.wakeConsumers,
        idleCheck: config.idleCheck,
        maxConnections: config.maxConnections,
      });
  }
}
