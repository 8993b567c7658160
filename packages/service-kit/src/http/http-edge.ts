// The kit's HTTP base without the rest of it (no database, no consumers): what
// a server that is not a saga service builds on, such as the gateway, so its
// errors leave in the same problem documents as the services'.
export {
  clientErrorHandler,
  clientErrorProblem,
  frameworkErrorHandler,
  rawProblemResponse,
} from './client-error.js';
export { createHttpServer, type FastifyZodInstance } from './create-http-server.js';
export { PROBLEM_CONTENT_TYPE, problem, ProblemError, sendProblem, toProblem } from './problem.js';
export { DEFAULT_SHUTDOWN_TIMEOUT_MS, onShutdownSignal } from '../shutdown.js';
