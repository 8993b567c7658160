// GET /orders/:orderId.
import { OrderIdParams, OrderResource } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { getOrder } from './get-order.handler.js';

/**
 * @example
 * registerGetOrderRoute(app, deps);
 */
export function registerGetOrderRoute(app: FastifyZodInstance, deps: OrderServiceDeps): void {
  app.get(
    '/orders/:orderId',
    { schema: { params: OrderIdParams, response: { 200: OrderResource } } },
    (request) => getOrder(deps, { orderId: request.params.orderId }),
  );
}
