// What every saga service's HTTP app starts with: the zod-typed Fastify
// instance, /health and /ready (database, event store, consumers subscribed), and /metrics. The
// service adds its own routes to what this returns.
import type { EventStore } from '@effectively-once/event-store';
import type { QueryExecutorProvider } from 'kysely';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { registerMetricsRoute } from '../metrics/metrics.routes.js';
import { createHttpServer, type FastifyZodInstance } from './create-http-server.js';
import { registerHealthRoutes } from './health.routes.js';
import { serviceReadinessChecks } from './readiness-checks.js';

/**
 * @example
 * const app = createServiceApp({ service: 'payment', db, store, metrics, logger: false });
 * registerPaymentRoutes(app, { db });
 */
export function createServiceApp(input: {
  service: string;
  /** Any Kysely instance, whatever its tables: checked by /ready. */
  db: QueryExecutorProvider;
  store: Pick<EventStore, 'readStream'>;
  metrics: ServiceMetrics;
  logLevel?: string | undefined;
  /** `false` silences request logs (tests). */
  logger?: boolean | undefined;
  /** Where the log lines go instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void } | undefined;
}): FastifyZodInstance {
  const { service, db, store } = input;
  const app = createHttpServer({
    service,
    ...(input.logLevel === undefined ? {} : { logLevel: input.logLevel }),
    ...(input.logger === undefined ? {} : { logger: input.logger }),
    ...(input.logStream === undefined ? {} : { logStream: input.logStream }),
  });
  const unsubscribedConsumers = (): readonly string[] => input.metrics.unsubscribedConsumers();
  registerHealthRoutes(app, {
    checks: serviceReadinessChecks({ service, db, store, unsubscribedConsumers }),
  });
  registerMetricsRoute(app, input.metrics);
  return app;
}
