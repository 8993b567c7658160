export { CLAIM_SQL, claimMessage, claimMessages } from './claim.js';
export {
  assertConsumerName,
  DEFAULT_REPLAY_HORIZON_MS,
  defineConsumer,
  InvalidConsumerError,
  type Consumer,
  type ConsumerDefinition,
} from './consumer.js';
export {
  ConsumerFailure,
  retryableFailure,
  retryUntilSuccessFailure,
  terminalFailure,
  type FailureKind,
} from './consumer-failure.js';
export { classifyFailure, isConnectionFailure, type FailureClass } from './failure-classifier.js';
export {
  countMarkers,
  findMarker,
  judgeReplays,
  pruneMarkers,
  RetentionError,
  type JudgedReplay,
  type PruneOptions,
} from './markers.js';
export { judgeReplay, type ReplayCandidate, type ReplayVerdict } from './replay-safety.js';
export {
  assertMessageRef,
  InvalidMessageError,
  MAX_MESSAGE_ID_LENGTH,
  type MessageRef,
} from './message.js';
export {
  currentBatch,
  MessageLeftBatchError,
  openMessageBatch,
  type BatchTransaction,
  type MessageBatch,
} from './message-batch.js';
export { idempotencyMigrations } from './migrations/index.js';
export type { Outcome, OutcomeListener, OutcomeReport } from './outcome.js';
export {
  processBatchOnce,
  type BatchOutcome,
  type ProcessBatchOnceOptions,
} from './process-batch-once.js';
export {
  attemptOnce,
  DUPLICATE_BY_MARKER,
  inTransaction,
  type Attempt,
  type AttemptResult,
  type AttemptStrategy,
  type HookedAttempt,
} from './attempt-once.js';
export { PROCESSING_POINTS, type ProcessingPoint, type Reach } from './hooks/points.js';
export {
  activeProcessingHooks,
  withProcessingHooks,
  type PointContext,
  type ProcessingHooks,
} from './hooks/processing-hooks.js';
export {
  processOnce,
  type ProcessOnceOptions,
  type ProcessResult,
  type UnitOfWork,
} from './process-once.js';
export {
  markerView,
  type IdempotencyTables,
  type ProcessedMessage,
  type ProcessedMessageTable,
} from './processed-message.table.js';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
export {
  DEFAULT_REDELIVERY_BACKOFF,
  settleDelivery,
  type Delivery,
  type SettleOptions,
  type Settlement,
} from './settle-delivery.js';
