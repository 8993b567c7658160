// The gateway as a Fastify instance built from its options on the service
// kit's HTTP base; server.ts listens, tests call inject or listen on port 0.
import replyFrom from '@fastify/reply-from';
import { createHttpServer, type FastifyZodInstance } from '@effectively-once/service-kit/http-edge';
import type { Upstreams } from './config.js';
import { refuseDotSegments } from './dot-segments.js';
import { registerAdminRoutes } from './routes/admin.routes.js';
import { registerForwardedRoutes } from './routes/forward.routes.js';
import { registerHealthRoutes } from './routes/health.routes.js';
import { registerIndexRoutes } from './routes/index.routes.js';
import { registerOpenApiRoute } from './routes/openapi.routes.js';

/** The service kit's HTTP base: the same problem documents, request ids and timeouts as the services. */
export type GatewayInstance = FastifyZodInstance;

/**
 * The gateway's one extension point: routes of its own beside the services'
 * (in the forwarding scope, which parses no body), and the paths of the JSON
 * index when the extension serves `/` itself.
 */
export interface GatewayExtension {
  /** Registered in the forwarding scope, after the services' routes. */
  registerRoutes?(scope: GatewayInstance, options: Pick<GatewayOptions, 'upstreamTimeoutMs'>): void;
  /** Where the JSON index answers; `/api` and `/` unless given. */
  readonly indexPaths?: readonly string[];
}

export interface GatewayOptions {
  upstreams: Upstreams;
  /** What is attached to the gateway from outside (GatewayExtension); nothing by default. */
  extension?: GatewayExtension | undefined;
  /** How long a forwarded request waits for the service's answer before 504. */
  upstreamTimeoutMs: number;
  /** How long /api/health waits for each service's /ready. */
  healthTimeoutMs: number;
  /** How long a request's headers and body may take to arrive before 408. */
  requestTimeoutMs: number;
  logLevel?: string;
  /** `false` silences the request log (tests). */
  logger?: boolean;
  /** Where the log lines go instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void };
}

/**
 * @example
 * const app = buildApp({ upstreams: config.upstreams, upstreamTimeoutMs: 10_000, healthTimeoutMs: 1_000, requestTimeoutMs: 10_000 });
 * const response = await app.inject({ method: 'GET', url: '/api/health' });
 */
export function buildApp(options: GatewayOptions): GatewayInstance {
  const app = createHttpServer({
    service: 'gateway',
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
    // The gateway never waits forever on a client either: a request whose
    // headers and body have not all arrived in time is answered 408 and closed.
    requestTimeoutMs: options.requestTimeoutMs,
    // It sees every request of every service: its per-request lines at debug.
    requestLog: 'debug',
    // Bodies are forwarded as they came; the forwarding scope parses nothing.
    jsonBodiesOnly: false,
    notFoundHint: 'GET /api/openapi.json lists them.',
  });
  app.addHook('onRequest', refuseDotSegments);

  void app.register(replyFrom, {
    undici: { connect: { timeout: options.upstreamTimeoutMs } },
    // The gateway never retries on a client's behalf what a service may have
    // taken: a retried POST could place an order twice, and a retried GET hides
    // the failure it should show. forward() sends a request no replica
    // received to the next replica, and that is all.
    retryMethods: [],
    disableRequestLogging: true,
    destroyAgent: true,
  });
  // An encapsulated scope, so that its pass-through body parser stays its own.
  void app.register((scope, _options, done) => {
    registerForwardedRoutes(scope, options);
    registerAdminRoutes(scope, options);
    options.extension?.registerRoutes?.(scope, options);
    done();
  });
  registerHealthRoutes(app, options);
  registerOpenApiRoute(app);
  registerIndexRoutes(app, options.extension?.indexPaths ?? ['/api', '/']);
  return app;
}
