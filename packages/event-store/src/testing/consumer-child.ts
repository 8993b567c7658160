// A consumer in a process of its own, for the test that kills one: it takes
// deliveries from a group, reports each on stdout, and never settles them, so
// only the store's death detection (or the message timeout) can free them.
import { loadEventStoreConfig } from '../config.js';
import { createEventStoreDBEventStore } from '../eventstoredb/eventstoredb-event-store.js';
import type { EventStore } from '../port/event-store.js';
import { ConsumerChildArgsSchema } from './child-store-spec.js';

// The embedded store is a package of its own that depends on this one, so it is
// loaded by its path in the workspace, and only when its own contract test runs
// this child: this package does not depend on it, and a fork may delete it.
const EMBEDDED_STORE = new URL('../../../event-store-postgres/src/index.ts', import.meta.url);

interface EmbeddedStoreModule {
  createPostgresEventStore(options: { url: string; pollIntervalMs: number }): EventStore;
}

async function openEmbeddedStore(input: { url: string; pollIntervalMs: number }) {
  const embedded = (await import(EMBEDDED_STORE.href)) as EmbeddedStoreModule;
  return embedded.createPostgresEventStore(input);
}

const args = ConsumerChildArgsSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
const config = loadEventStoreConfig();
const store =
  args.store.backend === 'postgres'
    ? await openEmbeddedStore({ url: args.store.url, pollIntervalMs: args.store.pollIntervalMs })
    : config.backend === 'eventstoredb'
      ? createEventStoreDBEventStore({ connectionString: config.connectionString })
      : undefined;
if (store === undefined)
  throw new Error('EVENTSTORE_CONNECTION_STRING is needed for an EventStoreDB child.');

for await (const delivery of store.subscribeToGroup(args.group)) {
  process.stdout.write(
    `${JSON.stringify({ received: delivery.event.id, retryCount: delivery.retryCount })}\n`,
  );
}
