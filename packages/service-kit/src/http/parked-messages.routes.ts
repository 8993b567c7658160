// The operator's view of a consumer's parked messages (terminal failures set
// aside with their reason) and of the messages waiting behind one. The way
// back, a replay, needs the consumer's markers and replay horizon, so it
// lives with them (parked-replay.routes.ts, registered with the consumer
// operations). Only registered when ADMIN_TOKEN is set; every call must carry it.
import type { EventStore } from '@effectively-once/event-store';
import { z } from 'zod';
import type { FastifyZodInstance } from './create-http-server.js';
import { authorizeAdmin } from './admin-token.js';
import { ProblemError } from './problem.js';

/** GET /admin/parked: the consumer's parked messages, ids and reasons only. */
export const ParkedList = z.object({
  consumer: z.string(),
  parked: z.array(
    z.object({
      eventId: z.string(),
      type: z.string(),
      streamName: z.string(),
      reason: z.string().nullable(),
      /** The later message of its ordering key that was let past it; it no longer blocks. */
      supersededBy: z.object({ eventId: z.string(), type: z.string() }).nullable(),
    }),
  ),
});
/** GET /admin/blocked: messages waiting behind an earlier one of their ordering key. */
export const BlockedList = z.object({
  consumer: z.string(),
  blocked: z.array(
    z.object({
      eventId: z.string(),
      type: z.string(),
      orderingKey: z.string(),
      blockedBy: z.object({
        eventId: z.string(),
        type: z.string(),
        state: z.enum(['queued', 'in_flight', 'retry_scheduled', 'parked']),
        notBefore: z.string().nullable(),
      }),
    }),
  ),
});
const WhichConsumer = z.object({
  /** Which of the service's consumers; the first one when absent. */
  consumer: z.string().min(1).optional(),
});

/**
 * GET /admin/parked lists a consumer's parked messages (ids, types and
 * reasons, never payloads); GET /admin/blocked the messages waiting behind
 * an earlier one of their ordering key. `?consumer=` picks one of the
 * service's consumers (the first by default). Nothing is registered without
 * a token. Replaying them: see registerParkedReplayRoutes.
 *
 * @example
 * registerParkedMessageRoutes(app, { store, consumers: [CONSUMERS.inventoryReservation, CONSUMERS.inventoryDemand], adminToken: config.adminToken });
 */
export function registerParkedMessageRoutes(
  app: FastifyZodInstance,
  input: {
    store: EventStore;
    consumers: readonly [string, ...string[]];
    adminToken: string | undefined;
  },
): void {
  const { store, consumers, adminToken } = input;
  if (adminToken === undefined) return;
  const pick = (asked: string | undefined): string => {
    const consumer = asked ?? consumers[0];
    if (!consumers.includes(consumer)) {
      throw new ProblemError({
        status: 404,
        code: 'UNKNOWN_CONSUMER',
        title: 'Unknown consumer',
        detail: `This service runs ${consumers.join(', ')}, not ${consumer}.`,
      });
    }
    return consumer;
  };
  app.get(
    '/admin/parked',
    { schema: { querystring: WhichConsumer, response: { 200: ParkedList } } },
    async (request) => {
      authorizeAdmin(request, adminToken);
      const consumer = pick(request.query.consumer);
      const parked = await store.listParkedMessages(consumer);
      return {
        consumer,
        parked: parked.map(({ event, reason, supersededBy }) => ({
          eventId: event.id,
          type: event.type,
          streamName: event.streamName,
          reason: reason ?? null,
          supersededBy:
            supersededBy === undefined
              ? null
              : { eventId: supersededBy.eventId, type: supersededBy.eventType },
        })),
      };
    },
  );
  app.get(
    '/admin/blocked',
    { schema: { querystring: WhichConsumer, response: { 200: BlockedList } } },
    async (request) => {
      authorizeAdmin(request, adminToken);
      const consumer = pick(request.query.consumer);
      const blocked = await store.listBlockedMessages(consumer);
      return {
        consumer,
        blocked: blocked.map(({ event, orderingKey, blockedBy }) => ({
          eventId: event.id,
          type: event.type,
          orderingKey,
          blockedBy: {
            eventId: blockedBy.eventId,
            type: blockedBy.eventType,
            state: blockedBy.state,
            notBefore: blockedBy.notBefore?.toISOString() ?? null,
          },
        })),
      };
    },
  );
}
