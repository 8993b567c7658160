import type { EventStoreConfig } from './config.js';
import { createEventStoreDBEventStore } from './eventstoredb/eventstoredb-event-store.js';
import type { EventStore } from './port/event-store.js';
import { createPostgresEventStore } from './postgres/postgres-event-store.js';

/**
 * The composition root's one call: EventStoreDB when the configuration names
 * a server, otherwise the embedded store in the given PostgreSQL database.
 *
 * @example
 * const store = openEventStore({ config: loadEventStoreConfig(), postgresUrl });
 */
export function openEventStore(input: {
  config: EventStoreConfig;
  postgresUrl: string;
}): EventStore {
  const { config } = input;
  switch (config.backend) {
    case 'eventstoredb':
      return createEventStoreDBEventStore({
        connectionString: config.connectionString,
        maxEventBytes: config.maxEventBytes,
      });
    case 'postgres':
      return createPostgresEventStore({
        url: input.postgresUrl,
        maxEventBytes: config.maxEventBytes,
        pollIntervalMs: config.pollIntervalMs,
      });
  }
}
