import { describe, it } from 'vitest';
import { loadEventStoreConfig } from '../config.js';
import { describeEventStoreContract } from '../testing/contract/index.js';
import { createEventStoreDBEventStore } from './eventstoredb-event-store.js';

const config = loadEventStoreConfig();

if (config.backend === 'eventstoredb') {
  describeEventStoreContract('EventStoreDB', () =>
    Promise.resolve({
      openStore: () =>
        Promise.resolve(
          createEventStoreDBEventStore({ connectionString: config.connectionString }),
        ),
      childStore: { backend: 'eventstoredb' },
    }),
  );
} else {
  // Reported as skipped, never silently green.
  describe.skip('event-store contract: EventStoreDB — no EventStoreDB server configured: set EVENTSTORE_CONNECTION_STRING (see docs/event-store.md)', () => {
    it('runs the whole contract suite against EventStoreDB', () => undefined);
  });
}
