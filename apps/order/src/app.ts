// The order service's HTTP application, built from injected dependencies so
// tests build it on their own database and call `inject`.
import { createServiceApp, type FastifyZodInstance } from '@effectively-once/service-kit';
import { registerOrderRoutes } from './adapters/http/orders.routes.js';
import { ORDER_SERVICE } from './config.js';
import type { OrderServiceDeps } from './order-service.deps.js';

export type { OrderServiceDeps } from './order-service.deps.js';

/**
 * @example
 * const app = buildApp({ db, store, metrics, now: () => new Date() });
 * const response = await app.inject({ method: 'GET', url: '/orders' });
 */
export function buildApp(
  deps: OrderServiceDeps,
  options: { logLevel?: string; logger?: boolean } = {},
): FastifyZodInstance {
  const app = createServiceApp({ service: ORDER_SERVICE, ...deps, ...options });
  registerOrderRoutes(app, deps);
  return app;
}
