// GET /orders: one page of orders, newest first.
import { ListOrdersQuery, OrderList } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { OrderAppDeps } from '../order-service.deps.js';
import { listOrders } from './list-orders.handler.js';

/**
 * @example
 * registerListOrdersRoute(app, deps);
 */
export function registerListOrdersRoute(app: FastifyZodInstance, deps: OrderAppDeps): void {
  app.get(
    '/orders',
    { schema: { querystring: ListOrdersQuery, response: { 200: OrderList } } },
    (request) => listOrders(deps, request.query),
  );
}
