// The notification service's HTTP face, built from injected dependencies so
// tests build it and call `inject` with no port and no process.
import type { EventStore } from '@effectively-once/event-store';
import {
  createServiceApp,
  type FastifyZodInstance,
  type ServiceMetrics,
} from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { registerListNotificationsRoute } from './list-notifications/list-notifications.route.js';
import type { NotificationDatabase } from './adapters/postgres/database.js';

export interface AppDeps {
  db: Kysely<NotificationDatabase>;
  store: EventStore;
  metrics: ServiceMetrics;
  logLevel?: string;
  logger?: boolean;
}

/**
 * @example
 * const app = buildApp({ db, store, metrics: createServiceMetrics({ service: 'notification' }) });
 * const response = await app.inject({ url: `/notifications?orderId=${orderId}` });
 */
export function buildApp(deps: AppDeps): FastifyZodInstance {
  const app = createServiceApp({
    service: 'notification',
    db: deps.db,
    store: deps.store,
    metrics: deps.metrics,
    logLevel: deps.logLevel,
    logger: deps.logger,
  });
  registerListNotificationsRoute(app, deps);
  return app;
}
