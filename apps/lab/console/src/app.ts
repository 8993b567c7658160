// The console as a Fastify instance built from its dependencies; server.ts
// wires the real ones and listens, tests pass their own and listen on port 0.
import type { EventStore } from '@effectively-once/event-store';
import {
  createHttpServer,
  registerHealthRoutes,
  type FastifyZodInstance,
} from '@effectively-once/service-kit';
import type { LabStepView } from './api/console.api.js';
import type { WebBundle } from './bundle/build-web-bundle.js';
import type { ConsoleConfig } from './config.js';
import { knownHostGuard, LOOPBACK_HOSTNAMES, stackHostnames } from './http/known-host.js';
import { sameOriginGuard } from './http/same-origin.js';
import type { OutcomeSource } from './live/delivery-outcomes.js';
import type { Feed } from './live/feed.js';
import { closeSseChannels } from './live/sse.js';
import type { MetricsScraper } from './metrics/metrics-scraper.js';
import { registerMetricsRoutes } from './metrics/metrics.routes.js';
import type { ProcessEvents } from './live/process-events.js';
import { registerProcessRoutes } from './routes/processes.routes.js';
import { registerAssetRoutes } from './routes/assets.routes.js';
import { registerEventsRoutes } from './routes/events.routes.js';
import { registerLinkRoutes } from './routes/links.routes.js';
import { registerParkedRoutes } from './routes/parked.routes.js';
import { registerStatusRoutes } from './routes/status.routes.js';
import type { ScenarioRuns } from './scenarios/scenario-runs.js';
import { OTLP_TRACES_PATH } from './traces/otlp-receiver.routes.js';
import { registerScenarioRoutes } from './scenarios/scenario.routes.js';

export interface ConsoleDeps {
  config: ConsoleConfig;
  store: EventStore;
  bundle: WebBundle;
  feed: Feed;
  outcomes: { readonly source: OutcomeSource };
  /** Lab mode only. */
  labSteps: { readOrder(orderId: string): Promise<LabStepView[]> } | undefined;
  runs: ScenarioRuns;
  metrics: MetricsScraper;
  /** The stack's starts and deaths the supervisor reported. */
  restarts: ProcessEvents;
  /** `false` silences the request log (tests). */
  logger?: boolean;
}

/** How long requests in flight get to finish when the console closes. */
const CLOSE_GRACE_MS = 2_000;

/** A stream nobody writes: reading it proves the store answers without touching real data. */
const READINESS_PROBE_STREAM = 'console-readiness-probe';

/** The console's Fastify instance, before any route: server.ts needs its logger to build the dependencies. */
export function createConsoleServer(input: {
  logLevel: string;
  /** `false` silences the request log (tests). */
  logger?: boolean | undefined;
  /** Host names besides loopback that requests may be addressed to (the stack's HOST). */
  extraHostnames?: readonly string[] | undefined;
}): FastifyZodInstance {
  const app = createHttpServer({
    service: 'console',
    logLevel: input.logLevel,
    ...(input.logger === undefined ? {} : { logger: input.logger }),
  });
  app.addHook(
    'onRequest',
    knownHostGuard([...LOOPBACK_HOSTNAMES, ...(input.extraHostnames ?? [])]),
  );
  app.addHook('onRequest', (request, reply, done) => {
    // The OTLP receiver's callers are processes, not pages: it has a guard of its own.
    if (request.method === 'POST' && request.routeOptions.url !== OTLP_TRACES_PATH) {
      sameOriginGuard(request, reply, done);
    } else done();
  });
  // An open event stream keeps its connection busy forever; end them all
  // first, or closing the server would wait for them. A client may also hold
  // a connection on which it never sends a request (undici opens one after
  // an aborted stream): after a grace for ordinary requests, cut what is left.
  app.addHook('preClose', (done) => {
    closeSseChannels(app.server);
    setTimeout(() => {
      app.server.closeAllConnections();
    }, CLOSE_GRACE_MS).unref();
    done();
  });
  return app;
}

/** Health, the page, and every /api/console route. */
export function registerConsoleRoutes(
  app: FastifyZodInstance,
  deps: Omit<ConsoleDeps, 'logger'>,
): void {
  const { config, store, feed } = deps;
  registerHealthRoutes(app, {
    checks: {
      eventStore: async () => {
        await store.readStream(READINESS_PROBE_STREAM, { maxCount: 1 });
      },
    },
  });
  registerAssetRoutes(app, { bundle: deps.bundle });
  registerStatusRoutes(app, { config, store, outcomes: deps.outcomes, startedAt: new Date() });
  registerEventsRoutes(app, {
    store,
    feed,
    labSteps: deps.labSteps,
    heartbeatMs: config.heartbeatMs,
  });
  registerParkedRoutes(app, { store, config });
  registerLinkRoutes(app, { config });
  registerMetricsRoutes(app, { scraper: deps.metrics });
  registerProcessRoutes(app, { restarts: deps.restarts });
  registerScenarioRoutes(app, { runs: deps.runs, heartbeatMs: config.heartbeatMs });
}

/**
 * The whole console app from its dependencies (tests; server.ts does the same in two steps).
 *
 * @example
 * const app = buildApp({ config, store, bundle, feed, outcomes, labSteps: undefined, runs, metrics, logger: false });
 * await app.listen({ host: '127.0.0.1', port: 0 });
 */
export function buildApp(deps: ConsoleDeps): FastifyZodInstance {
  const app = createConsoleServer({
    logLevel: deps.config.logLevel,
    logger: deps.logger,
    extraHostnames: stackHostnames({
      host: deps.config.host,
      gatewayUrl: deps.config.stack.gatewayUrl,
    }),
  });
  registerConsoleRoutes(app, deps);
  return app;
}
