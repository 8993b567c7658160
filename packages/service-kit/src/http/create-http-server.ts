// The Fastify instance every service starts from: zod types and checks every
// route, errors leave as problem documents, and each request has an id that
// the logs and the response share.
import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { tellSupervisor } from '../consumer/supervisor-channel.js';
import { clientErrorHandler, frameworkErrorHandler } from './client-error.js';
import { acceptJsonBodiesOnly } from './json-body.js';
import { lingerWhenAnsweredEarly } from './lingering-close.js';
import { DebugRequestLog } from './debug-request-log.js';
import { notFoundHandlerWith, problemErrorHandler } from './problem.js';
import { nameServerSpanByRoute } from '../tracing/http-route-span.js';
import { traceFieldsOfActiveSpan } from '../tracing/log-trace-fields.js';

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export type FastifyZodInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * A Fastify server with the zod type provider, the problem-details error and
 * 404 handlers, and `x-request-id` taken from the request (or generated) and
 * returned on the response. Pino logs one line per request and response,
 * never a body. `logger: false` silences it (tests).
 *
 * @example
 * const app = createHttpServer({ service: 'order', logLevel: config.logLevel });
 * app.post('/orders', { schema: { body: PlaceOrderRequest } }, (request) => placeOrder(request.body));
 */
export function createHttpServer(input: {
  service: string;
  logLevel?: string;
  logger?: boolean;
  /** How long a request's headers and body may take to arrive before 408 (default 30 s). */
  requestTimeoutMs?: number;
  /** `debug`: the per-request lines at debug, failures still at info (DebugRequestLog). Default `info`. */
  requestLog?: 'info' | 'debug';
  /**
   * `false` keeps Fastify's body parsers, for a server whose routes take
   * bodies as they came (the gateway forwards them). Default: JSON bodies
   * only (acceptJsonBodiesOnly).
   */
  jsonBodiesOnly?: boolean;
  /** Follows the 404's detail, e.g. where the routes are listed. */
  notFoundHint?: string;
  /** Where the log lines go instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void };
}): FastifyZodInstance {
  const requestTimeoutMs = input.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger:
      input.logger === false
        ? false
        : {
            level: input.logLevel ?? 'info',
            base: { service: input.service, pid: process.pid },
            // trace_id and span_id on every line written inside a span (docs/observability.md#traces).
            mixin: traceFieldsOfActiveSpan,
            ...(input.logStream === undefined ? {} : { stream: input.logStream }),
          },
    requestIdHeader: 'x-request-id',
    ...(input.requestLog === 'debug'
      ? { logController: new DebugRequestLog({ requestIdLogLabel: 'requestId' }) }
      : {}),
    genReqId: () => randomUUID(),
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // A client that stops sending mid-request is answered 408 and let go,
    // instead of holding a connection (Fastify's default is no limit at all).
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      // How often Node looks for late requests: the 408 comes this much after the timeout at most.
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (input.jsonBodiesOnly !== false) acceptJsonBodiesOnly(app);
  app.setErrorHandler(problemErrorHandler);
  lingerWhenAnsweredEarly(app, requestTimeoutMs);
  app.setNotFoundHandler(notFoundHandlerWith(input.notFoundHint));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    nameServerSpanByRoute(request);
    done();
  });
  // Under the supervisor: from here on it asks for /ready at its quick pace (ProcessListeningMessage).
  app.addHook('onListen', (done) => {
    tellSupervisor({ type: 'listening' });
    done();
  });
  return app;
}
