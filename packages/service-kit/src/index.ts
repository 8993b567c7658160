export {
  LOG_LEVELS,
  loadServiceConfig,
  openServiceEventStore,
  type LogLevel,
  type ServiceConfig,
} from './config.js';
export {
  DEFAULT_MAX_RETRY_COUNT,
  startConsumer,
  type RunningConsumer,
  type StartConsumerInput,
} from './consumer/start-consumer.js';
export type { ConsumerHandler, HandleResult } from './consumer/handle-delivery.js';
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
export { registerParkedMessageRoutes } from './http/parked-messages.routes.js';
