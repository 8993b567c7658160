// The public order API. zod types and checks every request and response; the
// handlers only translate HTTP to the use cases beside this file.
import {
  IdempotencyKey,
  ListOrdersQuery,
  OrderIdParams,
  OrderList,
  OrderResource,
  PaymentTokenFormat,
  PlaceOrderRequest,
} from '@effectively-once/contracts';
import { EventMetadataSchema } from '@effectively-once/event-store';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { IDEMPOTENT_REPLAYED_HEADER } from '@effectively-once/service-kit/idempotency-key';
import { z } from 'zod';
import type { OrderServiceDeps } from '../../order-service.deps.js';
import { cancelOrder } from './cancel-order.js';
import { listOrders } from './list-orders.js';
import { loadOrder } from '../eventStore/order-stream.js';
import { idempotencyKeyRequired, orderNotFound, paymentTokenMalformed } from './order.problems.js';
import { isPlaced, toOrderResource } from './order-resource.js';
import { placeOrder } from './place-order.js';

// Optional here so that a missing key gets its own problem code, not VALIDATION_FAILED.
const PlaceOrderHeaders = z.looseObject({
  'idempotency-key': IdempotencyKey.optional(),
  traceparent: z.string().optional(),
});
const TraceHeaders = z.looseObject({ traceparent: z.string().optional() });

/** A malformed traceparent is dropped, not refused: tracing must never fail an order. */
function validTraceparent(header: string | undefined): string | undefined {
  const parsed = EventMetadataSchema.shape.traceparent.safeParse(header);
  return parsed.success ? parsed.data : undefined;
}

/**
 * POST /orders, GET /orders, GET /orders/:orderId, POST /orders/:orderId/cancel.
 *
 * @example
 * registerOrderRoutes(app, deps);
 */
export function registerOrderRoutes(app: FastifyZodInstance, deps: OrderServiceDeps): void {
  app.post(
    '/orders',
    {
      schema: {
        headers: PlaceOrderHeaders,
        body: PlaceOrderRequest,
        response: { 201: OrderResource },
      },
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      if (idempotencyKey === undefined) throw idempotencyKeyRequired();
      // Checked before the key is claimed: a refused request leaves nothing behind.
      const token = PaymentTokenFormat.safeParse(request.body.paymentToken);
      if (!token.success)
        throw paymentTokenMalformed(token.error.issues[0]?.message ?? 'is malformed');
      const { resource, replayed } = await placeOrder(deps, {
        idempotencyKey,
        body: request.body,
        traceparent: validTraceparent(request.headers.traceparent),
      });
      if (replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return reply.code(201).header('location', `/orders/${resource.orderId}`).send(resource);
    },
  );

  app.get(
    '/orders',
    { schema: { querystring: ListOrdersQuery, response: { 200: OrderList } } },
    (request) => listOrders(deps, request.query),
  );

  app.get(
    '/orders/:orderId',
    { schema: { params: OrderIdParams, response: { 200: OrderResource } } },
    async (request) => {
      const loaded = await loadOrder(deps.store, request.params.orderId);
      if (!isPlaced(loaded)) throw orderNotFound(request.params.orderId);
      return toOrderResource(loaded);
    },
  );

  app.post(
    '/orders/:orderId/cancel',
    { schema: { headers: TraceHeaders, params: OrderIdParams, response: { 200: OrderResource } } },
    (request) =>
      cancelOrder(deps, {
        orderId: request.params.orderId,
        traceparent: validTraceparent(request.headers.traceparent),
      }),
  );
}
