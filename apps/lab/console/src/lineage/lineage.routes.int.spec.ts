// The lineage and stuck routes on a real event store: the order's messages
// read from its streams, a parked message from the store's list, outcomes
// from the feed, and one service's rows from a stand-in for its
// GET /lineage/:orderId (the route itself is tested against PostgreSQL in the
// service kit). The other services are down, and the answer says so.
import { randomUUID } from 'node:crypto';
import {
  CONSUMERS,
  OrderLineage,
  orderStream,
  StuckOrderList,
  type ServiceLineage,
} from '@effectively-once/contracts';
import { type StackTarget } from '@effectively-once/lab-stack';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { receive } from '@effectively-once/event-store/testing';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { createHttpServer } from '@effectively-once/service-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleServer } from '../app.js';
import { createFeed } from '../live/feed.js';
import { testStackTarget } from '../testing/stack-target.fixtures.js';
import { registerLineageRoutes } from './lineage.routes.js';
import { createOrderIndex } from './order-index.js';
import { outcome } from './testing/lineage.fixtures.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
const ADMIN_TOKEN = 'admin-token-held-by-the-console-1';
/** Nothing listens here: the services other than payment are down. */
const CLOSED_PORT = 9;

const paymentRows = new Map<string, Omit<ServiceLineage, 'service' | 'consumers'>>();
const payment = createHttpServer({ service: 'fake-payment', logger: false });
payment.get<{ Params: { orderId: string } }>('/lineage/:orderId', (request) => ({
  service: 'payment',
  consumers: [{ consumer: CONSUMERS.paymentAuthorization, eventTypes: ['OrderPaymentRequested'] }],
  ...(paymentRows.get(request.params.orderId) ?? { markers: [], outbox: [], timers: [] }),
}));
await payment.listen({ host: '127.0.0.1', port: 0 });
const paymentPort = (payment.server.address() as { port: number }).port;

function stack(adminToken: string | undefined): StackTarget {
  const base = testStackTarget();
  return testStackTarget({
    ports: {
      ...base.ports,
      order: CLOSED_PORT,
      inventory: CLOSED_PORT,
      notification: CLOSED_PORT,
      payment: paymentPort,
    },
    ...(adminToken === undefined ? {} : { adminToken }),
  });
}

const feed = createFeed({ capacity: 100 });
const orders = createOrderIndex();
feed.subscribe((item) => {
  orders.apply(item);
});

async function startConsole(adminToken: string | undefined) {
  const app = createConsoleServer({ logLevel: 'silent', logger: false });
  registerLineageRoutes(app, {
    config: { stack: stack(adminToken) },
    store,
    feed,
    orders,
    outcomes: { source: 'delivery-log' },
  });
  await app.ready();
  return app;
}
const withToken = await startConsole(ADMIN_TOKEN);
const withoutToken = await startConsole(undefined);
afterAll(async () => {
  await withToken.close();
  await withoutToken.close();
  await payment.close();
  await store.close();
});

/** An order placed and its payment requested, as the order service appends them. */
async function placeOrder(): Promise<{ orderId: string; placedId: string; requestedId: string }> {
  const [orderId, placedId, requestedId] = [randomUUID(), randomUUID(), randomUUID()];
  await store.appendToStream(
    orderStream(orderId),
    [
      {
        id: placedId,
        type: 'OrderPlaced',
        data: { orderId, placedAt: new Date().toISOString() },
        metadata: { correlationId: orderId, causationId: `PlaceOrder:${orderId}` },
      },
      {
        id: requestedId,
        type: 'OrderPaymentRequested',
        data: { orderId },
        metadata: { correlationId: orderId, causationId: placedId },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  const read = await store.readStream(orderStream(orderId));
  for (const event of read) {
    feed.publish({
      kind: 'saga-event',
      event: {
        eventId: event.id,
        orderId,
        streamName: event.streamName,
        revision: Number(event.revision),
        type: event.type,
        occurredAt: event.createdAt.toISOString(),
        data: event.data,
      },
    });
  }
  return { orderId, placedId, requestedId };
}

describe('GET /api/console/orders/:orderId/lineage', () => {
  it("assembles the order's messages, a service's marker, the outcomes, and the services that did not answer", async () => {
    // Given an order whose payment request the payment service marked, and whose delivery was reported
    const { orderId, placedId, requestedId } = await placeOrder();
    paymentRows.set(orderId, {
      markers: [
        {
          consumer: CONSUMERS.paymentAuthorization,
          messageId: requestedId,
          processedAt: new Date().toISOString(),
        },
      ],
      outbox: [],
      timers: [],
    });
    feed.publish({
      kind: 'delivery',
      delivery: outcome({ messageId: requestedId, orderId, retryCount: 1 }),
    });

    // When its lineage is asked for
    const response = await withToken.inject({
      method: 'GET',
      url: `/api/console/orders/${orderId}/lineage`,
    });

    // Then both messages are there in causal order, the request applied by the payment consumer
    expect(response.statusCode).toBe(200);
    const lineage = OrderLineage.parse(response.json());
    expect(lineage.messages.map(({ eventId, causedBy }) => ({ eventId, causedBy }))).toEqual([
      { eventId: placedId, causedBy: null },
      { eventId: requestedId, causedBy: 1 },
    ]);
    expect(lineage.messages[1]?.deliveries).toMatchObject([
      {
        consumer: CONSUMERS.paymentAuthorization,
        service: 'payment',
        state: 'applied',
        retryCount: 1,
      },
    ]);
    expect(lineage.now.status).toBe('awaiting_payment');
    // And the three services that are down are named as failed sources
    expect(
      lineage.sources.services.filter((source) => !source.ok).map((source) => source.service),
    ).toEqual(['order', 'inventory', 'notification']);
  });

  it('answers 404 ORDER_NOT_FOUND for an order the store does not hold', async () => {
    const response = await withToken.inject({
      method: 'GET',
      url: `/api/console/orders/${randomUUID()}/lineage`,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });
});

describe('the stuck orders', () => {
  it('lists an order whose payment request is parked, naming the message and the consumer, on both routes', async () => {
    // Given an order whose payment request the payment consumer parked
    const { orderId, requestedId } = await placeOrder();
    const group = CONSUMERS.paymentAuthorization;
    await store.createSubscriptionGroup(group, {
      filter: { kind: 'stream_prefix', prefixes: [orderStream(orderId)] },
      startFrom: 'start',
    });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    await (await deliveries.next()).ack();
    await (await deliveries.next()).nack('park', 'test: the card processor refused the token');
    await subscription.close();

    // When the stuck orders are asked for, by the page and with the admin token
    const fromPage = await withToken.inject({ method: 'GET', url: '/api/console/stuck' });
    const fromAdmin = await withToken.inject({
      method: 'GET',
      url: '/admin/stuck',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });

    // Then both list the order with the parked message and its consumer
    for (const response of [fromPage, fromAdmin]) {
      expect(response.statusCode).toBe(200);
      const stuck = StuckOrderList.parse(response.json()).orders.find(
        (order) => order.orderId === orderId,
      );
      expect(stuck).toMatchObject({
        status: 'awaiting_payment',
        reasons: [
          {
            kind: 'parked',
            consumer: group,
            service: 'payment',
            eventId: requestedId,
            eventType: 'OrderPaymentRequested',
            reason: 'test: the card processor refused the token',
          },
        ],
      });
    }
  });

  it.each([
    [undefined, 401, 'ADMIN_TOKEN_REQUIRED'],
    ['Bearer not-the-admin-token-at-all', 403, 'ADMIN_TOKEN_INVALID'],
  ])('refuses /admin/stuck with authorization %s: %d %s', async (authorization, status, code) => {
    const response = await withToken.inject({
      method: 'GET',
      url: '/admin/stuck',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code });
  });

  it('has no /admin/stuck on a stack without an admin token', async () => {
    const response = await withoutToken.inject({
      method: 'GET',
      url: '/admin/stuck',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.statusCode).toBe(404);
  });
});
