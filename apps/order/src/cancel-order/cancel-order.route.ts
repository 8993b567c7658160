// POST /orders/:orderId/cancel: the customer's request to cancel, answered
// with the order as the cancel left it.
import { OrderIdParams, OrderResource } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { retrySafeFailure } from '../order.problems.js';
import { TraceHeaders, validTraceparent } from '../adapters/http/traceparent.js';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { cancelOrder } from './cancel-order.handler.js';

/**
 * @example
 * registerCancelOrderRoute(app, deps);
 */
export function registerCancelOrderRoute(app: FastifyZodInstance, deps: OrderServiceDeps): void {
  app.post(
    '/orders/:orderId/cancel',
    { schema: { headers: TraceHeaders, params: OrderIdParams, response: { 200: OrderResource } } },
    async (request) => {
      try {
        return await cancelOrder(deps, {
          orderId: request.params.orderId,
          traceparent: validTraceparent(request.headers.traceparent),
        });
      } catch (error) {
        throw retrySafeFailure(error, 'The cancel');
      }
    },
  );
}
