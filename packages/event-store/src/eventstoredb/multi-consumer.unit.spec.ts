// The contract suite's several-consumers cases on the EventStoreDB adapter,
// against the fake client, which shares a group's messages between its
// connections as the server's consumer strategies do (fake-group-dispatch.ts).
// Against a real cluster they run in eventstoredb-event-store.int.spec.ts.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { describeMultiConsumerContract } from '../testing/contract/index.js';
import { eventStoreDBEventStoreOn } from './eventstoredb-event-store.js';
import { fakeEsdbClient } from './fake-esdb-client.js';

// One fake server; each store is a client of it, as each replica would be.
const fake = fakeEsdbClient();

describeMultiConsumerContract('EventStoreDB adapter on the fake client', () =>
  Promise.resolve(eventStoreDBEventStoreOn(fake.client as unknown as EventStoreDBClient)),
);
