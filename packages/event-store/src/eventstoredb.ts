// The EventStoreDB back end on its own entry point: the package's main entry
// does not load it, so a process on the embedded store never pays for its
// client (openEventStore imports it only when configured).
export {
  createEventStoreDBEventStore,
  type EventStoreDBEventStoreOptions,
} from './eventstoredb/eventstoredb-event-store.js';
