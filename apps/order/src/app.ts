// The order service's HTTP application, built from injected dependencies so
// tests build it on their own database and call `inject`.
import { createServiceApp, type FastifyZodInstance } from '@effectively-once/service-kit';
import { registerCancelOrderRoute } from './cancel-order/cancel-order.route.js';
import { ORDER_SERVICE } from './config.js';
import { registerGetOrderRoute } from './get-order/get-order.route.js';
import { registerListOrdersRoute } from './list-orders/list-orders.route.js';
import type { OrderAppDeps } from './order-service.deps.js';
import { registerPlaceOrderRoute } from './place-order/place-order.route.js';

export type { OrderAppDeps, OrderServiceDeps } from './order-service.deps.js';

/**
 * @example
 * const app = buildApp({ db, store, metrics, now: () => new Date(), deadlines, summaries: alreadyCaughtUp });
 * const response = await app.inject({ method: 'GET', url: '/orders' });
 */
export function buildApp(
  deps: OrderAppDeps,
  options: { logLevel?: string; logger?: boolean } = {},
): FastifyZodInstance {
  const app = createServiceApp({ service: ORDER_SERVICE, ...deps, ...options });
  // The public order API, one use case per folder.
  registerPlaceOrderRoute(app, deps);
  registerListOrdersRoute(app, deps);
  registerGetOrderRoute(app, deps);
  registerCancelOrderRoute(app, deps);
  return app;
}
