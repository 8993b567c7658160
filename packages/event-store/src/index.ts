export { loadEventStoreConfig, MAX_ACK_DELAY_MS, type EventStoreConfig } from './config.js';
// The EventStoreDB back end is `@effectively-once/event-store/eventstoredb`, so
// that loading this entry does not load its client.
export type { EventStoreDBEventStoreOptions } from './eventstoredb/eventstoredb-event-store.js';
export {
  comparePositions,
  EventMetadataSchema,
  parseRecordedEvent,
  RecordedEventSchema,
  START_POSITION,
  type EventMetadata,
  type EventMetadataInput,
  type GlobalPosition,
  type JsonValue,
  type NewEvent,
  type RecordedEvent,
} from './port/envelope.js';
export {
  DuplicateEventIdError,
  EventStoreError,
  EventStoreUnavailableError,
  InvalidInputError,
  SubscriptionGroupError,
  WrongExpectedRevisionError,
  type CurrentRevision,
  type EventStoreErrorCode,
} from './port/errors.js';
export type {
  AppendOptions,
  AppendResult,
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  SettledAppend,
  StreamAppend,
  SubscribeToAllOptions,
  SubscribeToGroupOptions,
} from './port/event-store.js';
export { appendEachInTurn } from './port/append-each-in-turn.js';
export { parseExpectedRevision, type ExpectedRevision } from './port/expected-revision.js';
export {
  DEFAULT_GROUP_SETTINGS,
  MAX_RETRY_AFTER_MS,
  parseGroupSettings,
  type BlockedMessage,
  type BlockingState,
  type CatchUpSubscription,
  type ConsumerStrategy,
  type Delivery,
  type NackAction,
  type NackOptions,
  type OrderingKey,
  type OrderingKeySource,
  type ParkedMessage,
  type PersistentSubscription,
  type ReplayParkedOptions,
  type StartFrom,
  type SubscriptionFilter,
  type SubscriptionGroupChanges,
  type SubscriptionGroupSettings,
} from './port/subscription.js';
export { orderingKeyOf } from './port/ordering-key.js';
export { DEFAULT_MAX_EVENT_BYTES, validateAppend } from './port/validate-append.js';
// A small utility the outbox relay's polling loop shares with the subscriptions.
export { Wakeup } from './wakeup.js';
