// The order service's HTTP application, built from injected dependencies so
// tests build it on their own database and call `inject`.
import {
  createHttpServer,
  registerHealthRoutes,
  registerMetricsRoute,
  type FastifyZodInstance,
} from '@effectively-once/service-kit';
import { sql } from 'kysely';
import { registerOrderRoutes } from './adapters/http/orders.routes.js';
import { ORDER_SERVICE } from './config.js';
import type { OrderServiceDeps } from './order-service.deps.js';

export type { OrderServiceDeps } from './order-service.deps.js';

/** A stream no one writes: reading it proves the event store answers. */
const READINESS_PROBE_STREAM = 'order-readiness-probe';

/**
 * @example
 * const app = buildApp({ db, store, metrics, now: () => new Date() });
 * const response = await app.inject({ method: 'GET', url: '/orders' });
 */
export function buildApp(
  deps: OrderServiceDeps,
  options: { logLevel?: string; logger?: boolean } = {},
): FastifyZodInstance {
  const app = createHttpServer({ service: ORDER_SERVICE, ...options });
  registerHealthRoutes(app, {
    checks: {
      database: async () => {
        await sql`SELECT 1`.execute(deps.db);
      },
      eventStore: async () => {
        await deps.store.readStream(READINESS_PROBE_STREAM, { maxCount: 1 });
      },
    },
  });
  registerMetricsRoute(app, deps.metrics);
  registerOrderRoutes(app, deps);
  return app;
}
