// An order's lineage and the stuck orders: what the console assembles from
// the event store, the delivery outcomes the supervisor passes on, and what
// each saga service's own database knows (docs/lineage.md, ADR 0018). The
// public bodies of GET /api/orders/{orderId}/lineage and GET /api/admin/stuck,
// and the per-service body the console asks each service for.
import { z } from 'zod';
import { DeliveryOutcomeName, DeliverySettlement } from './delivery-outcome.api.js';
import { CancellationReason, OrderDeadlineName, OrderDeadlines } from '../events/order.events.js';
import { OrderId, Timestamp } from '../events/values.js';
import { OrderStatus } from './orders.api.js';

/** A consumer's marker: its work for the message committed (docs/idempotent-consumer.md). */
export const LineageMarker = z.object({
  service: z.string(),
  consumer: z.string(),
  messageId: z.string(),
  processedAt: Timestamp,
});
export type LineageMarker = z.infer<typeof LineageMarker>;

/** An outbox row of one of the order's streams; `sentAt` null: not yet known to be in the store. */
export const LineageOutboxRow = z.object({
  service: z.string(),
  eventId: z.string(),
  streamName: z.string(),
  eventType: z.string(),
  createdAt: Timestamp,
  sentAt: Timestamp.nullable(),
});
export type LineageOutboxRow = z.infer<typeof LineageOutboxRow>;

/**
 * A durable timer of the order (the order service's deadlines); `firedAt`
 * null: still to fire. A timer whose firing failed is tried again at
 * `nextAttemptAt`, or, `parkedAt` set, never again by itself (docs/services/order.md).
 */
export const LineageTimer = z.object({
  service: z.string(),
  name: z.string(),
  dueAt: Timestamp,
  firedAt: Timestamp.nullable(),
  /** When it is tried next; null once fired or parked. */
  nextAttemptAt: Timestamp.nullable(),
  failedAttempts: z.number().int().nonnegative(),
  /** The last failure, as the timer logged it; null while none failed. */
  lastError: z.string().nullable(),
  parkedAt: Timestamp.nullable(),
});
export type LineageTimer = z.infer<typeof LineageTimer>;

/**
 * GET /lineage/{orderId}?messageIds=… on a saga service: its consumers and
 * the event types each receives, its markers of the given messages, its
 * outbox rows of the order's streams and its timers of the order. Not public:
 * the console asks each service directly and assembles the lineage.
 */
export const ServiceLineage = z.object({
  service: z.string(),
  consumers: z.array(z.object({ consumer: z.string(), eventTypes: z.array(z.string()) })),
  markers: z.array(LineageMarker.omit({ service: true })),
  outbox: z.array(LineageOutboxRow.omit({ service: true })),
  timers: z.array(LineageTimer.omit({ service: true })),
});
export type ServiceLineage = z.infer<typeof ServiceLineage>;

export const ServiceLineageQuery = z.object({
  /** The order's message ids, comma-separated: the markers are looked up by them. */
  messageIds: z
    .string()
    .max(20_000)
    .default('')
    .transform((ids) => ids.split(',').filter((id) => id !== ''))
    .pipe(z.array(z.string().min(1).max(200)).max(500)),
});

/**
 * Where one consumer stands with one message, the first that applies:
 * `parked` (in its group's parked list), `blocked` (waiting behind an earlier
 * message of its ordering key), `applied` (its marker exists, or it reported
 * applied or duplicate), `ignored` (acknowledged without work), `retrying`
 * (its last delivery was handed back), `pending` (nothing known yet).
 */
export const LineageDeliveryState = z.enum([
  'parked',
  'blocked',
  'applied',
  'ignored',
  'retrying',
  'pending',
]);
export type LineageDeliveryState = z.infer<typeof LineageDeliveryState>;

/** One settled delivery, as the process that settled it reported it. */
export const LineageAttempt = z.object({
  /** The process: order, inventory, inventory-2, payment, notification. */
  process: z.string(),
  at: Timestamp,
  retryCount: z.number().int().nonnegative(),
  outcome: DeliveryOutcomeName,
  settlement: DeliverySettlement,
  reason: z.string().nullable(),
  durationMs: z.number().nonnegative(),
});
export type LineageAttempt = z.infer<typeof LineageAttempt>;

/** Why the first unsettled message of an ordering key holds the others back. */
export const LineageBlockingState = z.enum(['queued', 'in_flight', 'retry_scheduled', 'parked']);

export const LineageBlockedBy = z.object({
  eventId: z.string(),
  eventType: z.string(),
  state: LineageBlockingState,
});

export const LineageDelivery = z.object({
  consumer: z.string(),
  /** The service that runs the consumer. */
  service: z.string(),
  state: LineageDeliveryState,
  /** The highest retry count a delivery of it reported: how often it was handed back. */
  retryCount: z.number().int().nonnegative(),
  marker: z.object({ processedAt: Timestamp }).nullable(),
  /** Every settled delivery the console still remembers, oldest first. */
  attempts: z.array(LineageAttempt),
  parked: z
    .object({
      reason: z.string().nullable(),
      /** A later message of its ordering key passed it: it no longer blocks. */
      supersededBy: z.object({ eventId: z.string(), eventType: z.string() }).nullable(),
    })
    .nullable(),
  blockedBy: LineageBlockedBy.nullable(),
});
export type LineageDelivery = z.infer<typeof LineageDelivery>;

export const LineageMessage = z.object({
  /** 1-based place in causal order: a message comes after the message that caused it. */
  seq: z.number().int().positive(),
  eventId: z.string(),
  type: z.string(),
  streamName: z.string(),
  /** 0-based number of the event in its stream. */
  revision: z.number().int().nonnegative(),
  recordedAt: Timestamp,
  correlationId: z.string().nullable(),
  causationId: z.string().nullable(),
  /** The `seq` of the message that caused it; null when a command did (placing, cancelling, a deadline). */
  causedBy: z.number().int().positive().nullable(),
  /** The service that owns the stream and wrote the event. */
  emittedBy: z.string(),
  /** One per consumer that receives this type. */
  deliveries: z.array(LineageDelivery),
});
export type LineageMessage = z.infer<typeof LineageMessage>;

/** One thing the order waits on now. */
export const LineageHold = z.object({
  kind: z.enum(['parked', 'blocked', 'retrying', 'pending', 'unsent', 'timer']),
  service: z.string(),
  consumer: z.string().nullable(),
  eventId: z.string().nullable(),
  eventType: z.string().nullable(),
  detail: z.string(),
});
export type LineageHold = z.infer<typeof LineageHold>;

/** A source the lineage is assembled from, and whether it answered. */
export const LineageSource = z.object({
  service: z.string(),
  ok: z.boolean(),
  error: z.string().nullable(),
});

export const OrderLineage = z
  .object({
    orderId: OrderId,
    assembledAt: Timestamp,
    /** Where the order is now: its status, and everything it still waits on. */
    now: z.object({
      /** Null when the order service did not answer. */
      status: OrderStatus.nullable(),
      cancellationReason: CancellationReason.nullable(),
      deadlines: OrderDeadlines.nullable(),
      waitingOn: z.array(LineageHold),
      summary: z.string(),
    }),
    messages: z.array(LineageMessage),
    markers: z.array(LineageMarker),
    outbox: z.array(LineageOutboxRow),
    timers: z.array(LineageTimer),
    sources: z.object({
      /** `unavailable`: no supervisor passes delivery outcomes on; attempts are empty. */
      outcomes: z.enum(['delivery-log', 'unavailable']),
      services: z.array(LineageSource),
    }),
  })
  .meta({ id: 'OrderLineage' });
export type OrderLineage = z.infer<typeof OrderLineage>;

const HeldMessage = {
  consumer: z.string(),
  service: z.string(),
  eventId: z.string(),
  eventType: z.string(),
};

/** Why an order is listed as stuck; each names what holds it. */
export const StuckReason = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('past_deadline'),
    deadline: OrderDeadlineName,
    dueAt: Timestamp,
    overdueMs: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal('parked'),
    ...HeldMessage,
    reason: z.string().nullable(),
    superseded: z.boolean(),
  }),
  z.object({ kind: z.literal('blocked'), ...HeldMessage, blockedBy: LineageBlockedBy }),
  z.object({
    kind: z.literal('retrying'),
    ...HeldMessage,
    retryCount: z.number().int().nonnegative(),
    reason: z.string().nullable(),
    lastAttemptAt: Timestamp,
  }),
  /** A deadline timer that failed until it was parked: it fires no more until an operator acts. */
  z.object({
    kind: z.literal('timer_parked'),
    deadline: z.string(),
    failedAttempts: z.number().int().nonnegative(),
    lastError: z.string().nullable(),
    parkedAt: Timestamp,
  }),
]);
export type StuckReason = z.infer<typeof StuckReason>;

export const StuckOrder = z.object({
  orderId: z.string(),
  /** As the order's events say; null when the console has not seen its OrderPlaced. */
  status: OrderStatus.nullable(),
  placedAt: Timestamp.nullable(),
  reasons: z.array(StuckReason).min(1),
});
export type StuckOrder = z.infer<typeof StuckOrder>;

export const StuckOrderList = z
  .object({
    assembledAt: Timestamp,
    outcomes: z.enum(['delivery-log', 'unavailable']),
    orders: z.array(StuckOrder),
  })
  .meta({ id: 'StuckOrderList' });
export type StuckOrderList = z.infer<typeof StuckOrderList>;
