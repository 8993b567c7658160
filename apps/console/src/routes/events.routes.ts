// GET /api/console/events[?orderId=]: the live feed as server-sent events.
// Subscribes first and sends the catch-up second, holding back what arrives
// meanwhile, so nothing published during the catch-up is lost; a reconnect
// simply gets the whole catch-up again (the page merges by key).
import type { EventStore } from '@effectively-once/event-store';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { z } from 'zod';
import type { FeedItem, LabStepView } from '../api/console.api.js';
import { orderIdOf, type Feed } from '../live/feed.js';
import { mergeOrderCatchUp } from '../live/order-catch-up.js';
import { readOrderEvents } from '../live/saga-events.js';
import { openSse } from '../live/sse.js';

/** The global stream only drives refreshes (recent orders, tables): a short memory will do. */
export const GLOBAL_CATCH_UP_ITEMS = 200;

const EventsQuery = z.strictObject({ orderId: z.string().min(1).max(200).optional() });

export interface EventsRouteDeps {
  store: EventStore;
  feed: Feed;
  /** Lab mode only: one order's steps from the lab journals. */
  labSteps: { readOrder(orderId: string): Promise<LabStepView[]> } | undefined;
  heartbeatMs: number;
}

async function catchUpOf(deps: EventsRouteDeps, orderId: string | undefined): Promise<FeedItem[]> {
  if (orderId === undefined) return deps.feed.recent({ limit: GLOBAL_CATCH_UP_ITEMS });
  const [events, labSteps] = await Promise.all([
    readOrderEvents(deps.store, orderId),
    deps.labSteps?.readOrder(orderId) ?? Promise.resolve([]),
  ]);
  return mergeOrderCatchUp({ events, labSteps, recent: deps.feed.recent({ orderId }) });
}

/**
 * @example
 * registerEventsRoutes(app, { store, feed, labSteps: undefined, heartbeatMs: 5_000 });
 */
export function registerEventsRoutes(app: FastifyZodInstance, deps: EventsRouteDeps): void {
  app.get(
    '/api/console/events',
    { schema: { querystring: EventsQuery } },
    async (request, reply) => {
      const { orderId } = request.query;
      const channel = openSse(request, reply, { heartbeatMs: deps.heartbeatMs });
      let held: FeedItem[] | undefined = [];
      const unsubscribe = deps.feed.subscribe((item) => {
        if (orderId !== undefined && orderIdOf(item) !== orderId) return;
        if (held === undefined) channel.send(item, { id: item.seq });
        else held.push(item);
      });
      channel.onClose(unsubscribe);
      try {
        const catchUp = await catchUpOf(deps, orderId);
        for (const item of catchUp) channel.send(item);
        channel.send({}, { event: 'caught-up' });
        const sent = new Set(catchUp.map((item) => item.seq));
        const meanwhile = held;
        held = undefined;
        for (const item of meanwhile) {
          if (!sent.has(item.seq)) channel.send(item, { id: item.seq });
        }
      } catch (error) {
        request.log.warn({ err: error, orderId }, 'event stream catch-up failed; closing');
        channel.close();
      }
    },
  );
}
