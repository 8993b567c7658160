// The notification service's HTTP face, built from injected dependencies so
// tests build it and call `inject` with no port and no process.
import type { EventStore } from '@effectively-once/event-store';
import {
  createHttpServer,
  registerHealthRoutes,
  registerMetricsRoute,
  type FastifyZodInstance,
  type ServiceMetrics,
} from '@effectively-once/service-kit';
import { sql, type Kysely } from 'kysely';
import { registerNotificationRoutes } from './adapters/http/notifications.routes.js';
import type { NotificationDatabase } from './adapters/postgres/database.js';

export interface AppDeps {
  db: Kysely<NotificationDatabase>;
  store: EventStore;
  metrics: ServiceMetrics;
  logLevel?: string;
  logger?: boolean;
}

/** A stream that never exists: reading it proves the event store answers. */
const READINESS_PROBE_STREAM = 'notification-readiness-probe';

/**
 * @example
 * const app = buildApp({ db, store, metrics: createServiceMetrics({ service: 'notification' }) });
 * const response = await app.inject({ url: `/notifications?orderId=${orderId}` });
 */
export function buildApp(deps: AppDeps): FastifyZodInstance {
  const app = createHttpServer({
    service: 'notification',
    ...(deps.logLevel === undefined ? {} : { logLevel: deps.logLevel }),
    ...(deps.logger === undefined ? {} : { logger: deps.logger }),
  });
  registerHealthRoutes(app, {
    checks: {
      database: async () => {
        await sql`select 1`.execute(deps.db);
      },
      eventStore: async () => {
        await deps.store.readStream(READINESS_PROBE_STREAM, { maxCount: 1 });
      },
    },
  });
  registerMetricsRoute(app, deps.metrics);
  registerNotificationRoutes(app, deps);
  return app;
}
