import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  IdempotencyKey,
  ListOrdersQuery,
  OrderIdParams,
  OrderList,
  OrderResource,
  PlaceOrderRequest,
} from '@effectively-once/contracts';
import { INVALID_REQUEST, UPSTREAM_FAILURES, jsonResponse, problemResponse } from '../responses.js';

const IdempotencyKeyHeader = z.object({
  'Idempotency-Key': IdempotencyKey.meta({
    description:
      'Names this order request. The same key with the same body replays the first response; the same key with another body is refused with 422.',
    examples: ['order-2024-06-01-0001'],
  }),
});

const PlacedHeaders = z.object({
  Location: z.string().meta({ description: 'The order: /api/orders/{orderId}.' }),
  'Idempotent-Replayed': z.literal('true').optional().meta({
    description:
      'Present when this is the stored response of an earlier request with the same key.',
  }),
});

export const orderPaths: ZodOpenApiPathsObject = {
  '/api/orders': {
    get: {
      operationId: 'listOrders',
      tags: ['orders'],
      summary: 'List orders, a page at a time',
      requestParams: { query: ListOrdersQuery },
      responses: {
        '200': jsonResponse(
          'A page of orders. Pass `nextCursor` as `cursor` for the next one.',
          OrderList,
        ),
        ...INVALID_REQUEST,
        ...UPSTREAM_FAILURES,
      },
    },
    post: {
      operationId: 'placeOrder',
      tags: ['orders'],
      summary: 'Place an order',
      description:
        'Starts the order saga: inventory is reserved, the payment authorized, then the order is confirmed (or cancelled). The answer comes before the saga ends: follow `status` with GET /api/orders/{orderId}.',
      requestParams: { header: IdempotencyKeyHeader },
      requestBody: {
        required: true,
        content: { 'application/json': { schema: PlaceOrderRequest } },
      },
      responses: {
        '201': {
          ...jsonResponse(
            'The order was placed, or, for an Idempotency-Key already used with the same body, the order that key placed.',
            OrderResource,
          ),
          headers: PlacedHeaders,
        },
        '400': problemResponse(['VALIDATION_FAILED', 'MALFORMED_JSON', 'IDEMPOTENCY_KEY_REQUIRED']),
        '422': problemResponse(['IDEMPOTENCY_KEY_REUSED', 'PAYMENT_TOKEN_MALFORMED']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/orders/{orderId}': {
    get: {
      operationId: 'getOrder',
      tags: ['orders'],
      summary: 'Read an order, with its status and event timeline',
      requestParams: { path: OrderIdParams },
      responses: {
        '200': jsonResponse('The order as of its latest event.', OrderResource),
        ...INVALID_REQUEST,
        '404': problemResponse(['ORDER_NOT_FOUND']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/orders/{orderId}/cancel': {
    post: {
      operationId: 'cancelOrder',
      tags: ['orders'],
      summary: 'Ask to cancel an order',
      description:
        'Before confirmation the order moves to `cancelling`; the reserved stock is released and an authorized payment voided before it becomes `cancelled`. Repeating the call on a cancelling or cancelled order answers 200 with the order as it is.',
      requestParams: { path: OrderIdParams },
      responses: {
        '200': jsonResponse(
          'The order, now cancelling (or already cancelling or cancelled).',
          OrderResource,
        ),
        ...INVALID_REQUEST,
        '404': problemResponse(['ORDER_NOT_FOUND']),
        '409': problemResponse(['ORDER_ALREADY_CONFIRMED', 'ORDER_CHANGED_CONCURRENTLY']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
};
