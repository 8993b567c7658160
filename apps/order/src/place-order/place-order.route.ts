// POST /orders. zod types and checks the request and the response; the
// handler beside this file does the crash-safe placing.
import {
  IdempotencyKey,
  OrderResource,
  PaymentTokenFormat,
  PlaceOrderRequest,
} from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { IDEMPOTENT_REPLAYED_HEADER } from '@effectively-once/service-kit/idempotency-key';
import { z } from 'zod';
import {
  idempotencyKeyRequired,
  paymentTokenMalformed,
  retrySafeFailure,
} from '../order.problems.js';
import { validTraceparent } from '../adapters/http/traceparent.js';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { placeOrder } from './place-order.handler.js';

// Optional here so that a missing key gets its own problem code, not VALIDATION_FAILED.
const PlaceOrderHeaders = z.looseObject({
  'idempotency-key': IdempotencyKey.optional(),
  traceparent: z.string().optional(),
});

/**
 * @example
 * registerPlaceOrderRoute(app, deps);
 */
export function registerPlaceOrderRoute(app: FastifyZodInstance, deps: OrderServiceDeps): void {
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
      }).catch((error: unknown) => {
        throw retrySafeFailure(error, 'The order placement');
      });
      if (replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return reply.code(201).header('location', `/orders/${resource.orderId}`).send(resource);
    },
  );
}
