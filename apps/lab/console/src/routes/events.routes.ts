// GET /api/console/events[?orderId=]: the live feed as server-sent events.
// Subscribes first and sends the catch-up second, holding back what arrives
// meanwhile, so nothing published during the catch-up is lost; a reconnect
// simply gets the whole catch-up again (the page merges by key).
import type { EventStore } from '@effectively-once/event-store';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { z } from 'zod';
import { FeedItem, type LabStepView } from '../api/console.api.js';
import { feedItemKey, orderIdOf, type Feed } from '../live/feed.js';
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
      // Each item is checked against the API, as the responses are. One that
      // does not match is left out, not the end of the stream: the feed keeps
      // it, so every reconnect's catch-up would end the same way. And it never
      // throws into the feed's publisher.
      const send = (item: FeedItem, id?: number): void => {
        const parsed = FeedItem.safeParse(item);
        if (parsed.success) channel.send(parsed.data, id === undefined ? undefined : { id });
        else {
          request.log.error(
            { err: parsed.error, kind: item.kind, seq: item.seq, orderId },
            'a feed item does not match the console API; not sent',
          );
        }
      };
      // The catch-up's facts, kept while the stream lives: the $all
      // subscription may still be behind the store and publish them later.
      const sent = new Set<string>();
      const sendLive = (item: FeedItem): void => {
        if (!sent.has(feedItemKey(item))) send(item, item.seq);
      };
      let held: FeedItem[] | undefined = [];
      const unsubscribe = deps.feed.subscribe((item) => {
        if (orderId !== undefined && orderIdOf(item) !== orderId) return;
        if (held === undefined) sendLive(item);
        else held.push(item);
      });
      channel.onClose(unsubscribe);
      try {
        const catchUp = await catchUpOf(deps, orderId);
        for (const item of catchUp) {
          const key = feedItemKey(item);
          if (sent.has(key)) continue;
          sent.add(key);
          send(item);
        }
        channel.send({}, { event: 'caught-up' });
        const meanwhile = held;
        held = undefined;
        for (const item of meanwhile) sendLive(item);
      } catch (error) {
        request.log.warn({ err: error, orderId }, 'event stream catch-up failed; closing');
        channel.close();
      }
    },
  );
}
