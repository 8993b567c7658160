// An order's lineage and the stuck orders: both assembled by the flow console
// (the gateway forwards them to it), from the event store, the delivery
// outcomes and each service's own database (docs/lineage.md).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { OrderLineage, StuckOrderList, OrderIdParams } from '@effectively-once/contracts';
import {
  INVALID_REQUEST,
  UPSTREAM_FAILURES,
  jsonResponse,
  problemResponse,
} from '../openapi/responses.js';

export const lineagePaths: ZodOpenApiPathsObject = {
  '/api/orders/{orderId}/lineage': {
    get: {
      operationId: 'getOrderLineage',
      tags: ['orders'],
      summary:
        'Every message of an order in causal order, what each consumer did with it, and where the order waits now',
      description:
        "Assembled by the flow console when asked: the order's events from the event store (stream, revision, correlation and causation), each consumer's settled deliveries with their retry counts as the services reported them, parked and blocked messages, and every marker, outbox row and timer each service's database holds for the order. Delivery attempts are remembered in memory: after a console restart only the markers remain. Needs the console (503 on a stack started with STACK_CONSOLE=false).",
      requestParams: { path: OrderIdParams },
      responses: {
        '200': jsonResponse('The order as far as every source could tell.', OrderLineage),
        ...INVALID_REQUEST,
        '404': problemResponse(['ORDER_NOT_FOUND']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/admin/stuck': {
    get: {
      operationId: 'listStuckOrders',
      tags: ['operations'],
      summary: 'Orders past a deadline, or with a message retrying, parked or blocked',
      description:
        'An operator route: send `Authorization: Bearer <ADMIN_TOKEN>`. Each order names what holds it: the deadline it passed, or the message and the consumer that holds it. Assembled by the flow console (503 without one).',
      responses: {
        '200': jsonResponse('The stuck orders, the oldest first.', StuckOrderList),
        '401': problemResponse(['ADMIN_TOKEN_REQUIRED']),
        '403': problemResponse(['ADMIN_TOKEN_INVALID']),
        '404': problemResponse(['NOT_FOUND']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
};
