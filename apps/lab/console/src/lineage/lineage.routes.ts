// The lineage of one order and the stuck orders, assembled here because the
// console holds what no service does: the outcomes every process reported,
// and a view of every order's events (ADR 0018). GET
// /api/console/orders/:orderId/lineage and /api/console/stuck serve the page
// (and the gateway's public GET /api/orders/:orderId/lineage); /admin/stuck is
// the gateway's GET /api/admin/stuck, behind the stack's admin token.
import {
  OrderIdParams,
  OrderLineage,
  orderStream,
  StuckOrderList,
} from '@effectively-once/contracts';
import type { EventStore } from '@effectively-once/event-store';
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import { authorizeAdmin } from '@effectively-once/service-kit/admin-token';
import type { DeliveryView } from '../api/console.api.js';
import type { ConsoleConfig } from '../config.js';
import type { OutcomeSource } from '../live/delivery-outcomes.js';
import type { Feed } from '../live/feed.js';
import { CONSOLE_CONSUMERS, CONSUMER_SERVICES } from '../routes/console-consumers.js';
import { assembleLineage, type StoredMessage } from './assemble-lineage.js';
import { findStuckOrders, pastADeadline, withParkedTimers } from './find-stuck-orders.js';
import { readGroupStates } from './group-states.js';
import type { OrderIndex } from './order-index.js';
import { readOrderEvents } from './order-events.js';
import { askServices, orderTimers, serviceUrls } from './service-lineage.client.js';

/** Orders past a deadline whose timers the stuck list asks the order service for, per request. */
const MAX_TIMER_LOOKUPS = 50;

export interface LineageRouteDeps {
  config: Pick<ConsoleConfig, 'stack'>;
  store: EventStore;
  feed: Feed;
  orders: OrderIndex;
  outcomes: { readonly source: OutcomeSource };
}

/** The order's events as the lineage reads them. */
async function readOrderMessages(store: EventStore, orderId: string): Promise<StoredMessage[]> {
  return (await readOrderEvents(store, orderId)).map((event) => ({
    eventId: event.id,
    type: event.type,
    streamName: event.streamName,
    revision: Number(event.revision),
    recordedAt: event.createdAt.toISOString(),
    correlationId: event.metadata.correlationId ?? null,
    causationId: event.metadata.causationId ?? null,
    data: event.data,
  }));
}

function rememberedOutcomes(feed: Feed, orderId?: string): DeliveryView[] {
  return feed
    .recent(orderId === undefined ? {} : { orderId })
    .flatMap((item) => (item.kind === 'delivery' ? [item.delivery] : []));
}

function orderNotFound(orderId: string): ProblemError {
  return new ProblemError({
    status: 404,
    code: 'ORDER_NOT_FOUND',
    title: 'No such order',
    detail: `The event store holds no order ${orderId}.`,
  });
}

/**
 * @example
 * registerLineageRoutes(app, { config, store, feed, orders, outcomes });
 */
export function registerLineageRoutes(app: FastifyZodInstance, deps: LineageRouteDeps): void {
  const { store, feed, orders } = deps;
  const urls = serviceUrls(deps.config.stack);

  app.get(
    '/api/console/orders/:orderId/lineage',
    { schema: { params: OrderIdParams, response: { 200: OrderLineage } } },
    async (request) => {
      const { orderId } = request.params;
      const messages = await readOrderMessages(store, orderId);
      if (!messages.some((message) => message.streamName === orderStream(orderId))) {
        throw orderNotFound(orderId);
      }
      const [groups, services] = await Promise.all([
        readGroupStates(store, CONSOLE_CONSUMERS),
        askServices({ urls, orderId, messageIds: messages.map((message) => message.eventId) }),
      ]);
      return assembleLineage({
        orderId,
        now: new Date(),
        messages,
        outcomes: rememberedOutcomes(feed, orderId),
        outcomeSource: deps.outcomes.source,
        groups,
        services,
        consumerServices: CONSUMER_SERVICES,
      });
    },
  );

  const stuck = async (): Promise<StuckOrderList> => {
    const list = findStuckOrders({
      now: new Date(),
      orders: orders.all(),
      progressOf: (orderId) => orders.get(orderId),
      groups: await readGroupStates(store, CONSOLE_CONSUMERS),
      outcomes: rememberedOutcomes(feed),
      outcomeSource: deps.outcomes.source,
      consumerServices: CONSUMER_SERVICES,
    });
    // A parked timer is kept by the order service: asked for each order past a
    // deadline (only those can have one), at most a page of them at once.
    const asked = pastADeadline(list).slice(0, MAX_TIMER_LOOKUPS);
    const timers = await Promise.all(
      asked.map(
        async (orderId) => [orderId, await orderTimers({ orderUrl: urls.order, orderId })] as const,
      ),
    );
    return withParkedTimers(list, new Map(timers));
  };
  app.get('/api/console/stuck', { schema: { response: { 200: StuckOrderList } } }, stuck);

  // Like a service's /admin routes: none at all on a stack without an admin token.
  const { adminToken } = deps.config.stack;
  if (adminToken === undefined) return;
  app.get('/admin/stuck', { schema: { response: { 200: StuckOrderList } } }, async (request) => {
    authorizeAdmin(request, adminToken);
    return stuck();
  });
}
