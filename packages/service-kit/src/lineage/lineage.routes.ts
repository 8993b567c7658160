// GET /lineage/:orderId: what this service's own database knows about one
// order, for the console, which assembles the order's lineage from every
// service's answer, the event store and the delivery outcomes (ADR 0018).
// Read-only and not behind the admin token: the public lineage shows the same
// rows, and it must work on a stack started without one. The gateway does
// not forward it; the console asks the service directly.
import {
  inventoryStream,
  notificationStream,
  OrderIdParams,
  orderStream,
  paymentStream,
  ServiceLineage,
  ServiceLineageQuery,
} from '@effectively-once/contracts';
import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';
import type { Kysely } from 'kysely';
import type { FastifyZodInstance } from '../http/create-http-server.js';
import { readMarkers, readOutboxRows } from './lineage.queries.js';

export interface LineageConsumer {
  /** Also its subscription group. */
  readonly consumer: string;
  /** The event types the group receives (its store-side filter). */
  readonly eventTypes: readonly string[];
}

/** A durable timer the service keeps for an order (the order service's deadlines). */
export interface LineageTimerRow {
  readonly name: string;
  readonly dueAt: Date;
  readonly firedAt: Date | null;
  /** Null once fired or parked. */
  readonly nextAttemptAt: Date | null;
  readonly failedAttempts: number;
  readonly lastError: string | null;
  readonly parkedAt: Date | null;
}

export interface LineageRouteInput {
  service: string;
  consumers: readonly LineageConsumer[];
  /** The service's database seen through its marker table (markerView). */
  markers: Kysely<IdempotencyTables>;
  /** Its outbox (outboxView); absent for a service that appends straight to the store. */
  outbox?: Kysely<OutboxTables> | undefined;
  timers?: ((orderId: string) => Promise<readonly LineageTimerRow[]>) | undefined;
}

const sagaStreamsOf = (orderId: string): string[] =>
  [orderStream, inventoryStream, paymentStream, notificationStream].map((name) => name(orderId));

/**
 * @example
 * registerLineageRoute(app, {
 *   service: 'payment',
 *   consumers: [{ consumer: CONSUMERS.paymentAuthorization, eventTypes: PAYMENT_AUTHORIZATION_EVENTS }],
 *   markers: markerView(db),
 *   outbox: outboxView(db),
 * });
 */
export function registerLineageRoute(app: FastifyZodInstance, input: LineageRouteInput): void {
  app.get(
    '/lineage/:orderId',
    {
      schema: {
        params: OrderIdParams,
        querystring: ServiceLineageQuery,
        response: { 200: ServiceLineage },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const [markers, outbox, timers] = await Promise.all([
        readMarkers(input.markers, {
          consumers: input.consumers.map(({ consumer }) => consumer),
          messageIds: request.query.messageIds,
        }),
        input.outbox === undefined ? [] : readOutboxRows(input.outbox, sagaStreamsOf(orderId)),
        input.timers?.(orderId) ?? [],
      ]);
      return {
        service: input.service,
        consumers: input.consumers.map(({ consumer, eventTypes }) => ({
          consumer,
          eventTypes: [...eventTypes],
        })),
        markers: markers.map((marker) => ({
          ...marker,
          processedAt: marker.processedAt.toISOString(),
        })),
        outbox: outbox.map((row) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          sentAt: row.sentAt?.toISOString() ?? null,
        })),
        timers: timers.map((timer) => ({
          name: timer.name,
          dueAt: timer.dueAt.toISOString(),
          firedAt: timer.firedAt?.toISOString() ?? null,
          nextAttemptAt: timer.nextAttemptAt?.toISOString() ?? null,
          failedAttempts: timer.failedAttempts,
          lastError: timer.lastError,
          parkedAt: timer.parkedAt?.toISOString() ?? null,
        })),
      };
    },
  );
}
