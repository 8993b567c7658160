export {
  LOG_LEVELS,
  loadServiceConfig,
  openServiceEventStore,
  type LogLevel,
  type ServiceConfig,
} from './config.js';
export { openEventStore } from './open-event-store.js';
export {
  startConsumer,
  type RunningConsumer,
  type StartConsumerInput,
} from './consumer/start-consumer.js';
export {
  consumerSettings,
  DEFAULT_CONSUMER_CONFIG,
  DEFAULT_MAX_RETRY_COUNT,
  type ConsumerConfig,
} from './consumer/consumer-settings.js';
export {
  deliveryFactsOf,
  type DeliveryFacts,
  type DeliveryFlow,
  type DeliveryHooks,
  type DeliveryPoints,
  type DeliveryRun,
  type DeliverySettled,
} from './consumer/delivery-hooks.js';
export {
  loggedSteps,
  stepReporter,
  unheardSteps,
  type StepFacts,
  type StepListener,
  type StepReporter,
} from './steps/steps.js';
export type { ConsumerHandler, DeliveryAttempt, HandleResult } from './consumer/handler.js';
export { traceIdOf } from './consumer/trace-id.js';
export { createHttpServer, type FastifyZodInstance } from './http/create-http-server.js';
export { registerHealthRoutes } from './http/health.routes.js';
export { serviceReadinessChecks } from './http/readiness-checks.js';
export { createServiceApp } from './http/create-service-app.js';
export {
  PROBLEM_CONTENT_TYPE,
  problem,
  ProblemError,
  problemType,
  sendProblem,
  toProblem,
} from './http/problem.js';
export { registerMetricsRoute } from './metrics/metrics.routes.js';
export {
  createServiceMetrics,
  type MessageOutcome,
  type ServiceMetrics,
} from './metrics/service-metrics.js';
export { DEFAULT_SHUTDOWN_TIMEOUT_MS, onShutdownSignal } from './shutdown.js';
export { outgoingEvent } from './messaging/outgoing-event.js';
export {
  BlockedList,
  ParkedList,
  registerParkedMessageRoutes,
} from './http/parked-messages.routes.js';
export { registerParkedReplayRoutes, ReplayedParked } from './http/parked-replay.routes.js';
export {
  registerConsumerOperationRoutes,
  type OperatedConsumer,
} from './http/consumer-operations.routes.js';
export { runService } from './run-service/run-service.js';
export { startService, type RunningService } from './run-service/start-service.js';
export {
  startDeclaredConsumer,
  type DeclaredConsumerInput,
} from './run-service/start-declared-consumer.js';
export {
  SHUTDOWN_PHASES,
  shutdownList,
  type ShutdownList,
  type ShutdownPhase,
} from './run-service/shutdown-list.js';
export type {
  AttachedExtension,
  Closable,
  DeclaredConsumer,
  ServiceContext,
  ServiceDeclaration,
  ServiceExtension,
  ServiceResources,
} from './run-service/service-declaration.js';
