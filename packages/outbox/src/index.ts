export { enqueueEvents, InvalidOutgoingEventError, type OutgoingEvent } from './enqueue-events.js';
export { outboxMigrations } from './migrations/index.js';
export {
  OutboxPublishError,
  startOutboxRelay,
  type OutboxRelay,
  type OutboxRelayOptions,
} from './outbox-relay.js';
export { pruneSentEvents, type PruneSentOptions } from './outbox.repository.js';
export { outboxView, type OutboxRow, type OutboxTable, type OutboxTables } from './outbox.table.js';
export type { AfterAppend, AppendedOutboxRow, StreamFailure } from './publish-batch.js';
export { RELAY_APPLICATION_NAME, RELAY_LOCK_KEY, type RelayLog } from './relay-lock.js';
