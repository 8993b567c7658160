// A consumer in a process of its own, for the test that kills one: it takes
// deliveries from a group, reports each on stdout, and never settles them, so
// only the store's death detection (or the message timeout) can free them.
import { loadEventStoreConfig } from '../config.js';
import { createEventStoreDBEventStore } from '../eventstoredb/eventstoredb-event-store.js';
import { createPostgresEventStore } from '../postgres/postgres-event-store.js';
import { ConsumerChildArgsSchema } from './child-store-spec.js';

const args = ConsumerChildArgsSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
const config = loadEventStoreConfig();
const store =
  args.store.backend === 'postgres'
    ? createPostgresEventStore({ url: args.store.url, pollIntervalMs: args.store.pollIntervalMs })
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
