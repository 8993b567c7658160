// The test kit for anyone adding a consumer: prove it idempotent and race-safe
// against a real PostgreSQL database. Framework-neutral (node:assert).
export { assertIdempotent } from './assert-idempotent.js';
export { assertRaceSafe, type RaceSetup } from './assert-race-safe.js';
export { markerCount, type ConsumerCheck } from './consumer-check.js';
export { recordingDelivery, type RecordingDelivery } from './recording-delivery.js';
// Runs processOnce as a batched consumer loop does, to run a suite with batching on (ADR 0036).
export { processOnceInABatch } from './process-in-batch.js';
// For tests of code that runs processOnce under hooks: hooks that record the
// points reached, and may hold or fail there.
export {
  recordingHooks,
  type HookVisit,
  type RecordingHooks,
  type RecordingHooksOptions,
} from './recording-hooks.js';
// For every consumer's integration tests: a network call inside processOnce's
// transaction fails the test (docs/idempotent-consumer.md, ADR 0012).
export { connectTarget, type ConnectTarget } from './connect-target.js';
export {
  guardNetworkInsideTransactions,
  NETWORK_GUARD_DOC,
  NetworkInsideTransactionError,
  type AllowedTarget,
  type NetworkGuard,
  type NetworkGuardOptions,
  type NetworkViolation,
} from './network-guard.js';
// A counter with no business key, so the marker is its only guard: what tests
// of processOnce and of attempt flows count with.
export {
  bump,
  deliver,
  failAt,
  newMessage,
  tallyConsumer,
  tallyMigrations,
  tallyOf,
  type TallyDatabase,
} from './tally.fixtures.js';
