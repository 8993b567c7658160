// Where an order stands, folded from its order-stream events: the status the
// order service would report, when it was placed and its deadlines. The
// console keeps one per order it has seen (the stuck view needs every order's
// deadlines without reading every stream) and folds one order's events for
// its lineage. Pure.
import {
  CancellationReason,
  OrderDeadlines,
  STREAM_PREFIX,
  Timestamp,
  type OrderStatus,
} from '@effectively-once/contracts';
import { z } from 'zod';

export interface OrderProgress {
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly placedAt: string | null;
  readonly deadlines: OrderDeadlines | null;
  readonly cancellationReason: CancellationReason | null;
}

/** The part of an event the fold reads. */
export interface OrderStreamEvent {
  readonly orderId: string;
  readonly streamName: string;
  readonly type: string;
  readonly data: unknown;
}

const Placed = z.object({
  placedAt: Timestamp,
  deadlines: OrderDeadlines.nullable().default(null),
});
const WithReason = z.object({ reason: CancellationReason });

/** The status each order-stream event moves the order to; the others leave it. */
const STATUS_AFTER: Readonly<Record<string, OrderStatus>> = {
  OrderPlaced: 'awaiting_inventory',
  OrderPaymentRequested: 'awaiting_payment',
  OrderConfirmed: 'confirmed',
  OrderCancellationRequested: 'cancelling',
  OrderCancelled: 'cancelled',
};

/**
 * How long past its due time a deadline may be before the order (or its
 * timer) counts as stuck: the order service's timer polls every 500 ms by
 * default (ORDER_TIMER_POLL_MS) and then appends the cancellation, so a healthy order or timer is
 * never listed for long.
 */
export const DEADLINE_GRACE_MS = 5_000;

export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['confirmed', 'cancelled']);

/**
 * The progress after one more event; events of other streams, and any before
 * OrderPlaced, change nothing.
 *
 * @example
 * const progress = events.reduce(progressAfter, undefined);
 */
export function progressAfter(
  progress: OrderProgress | undefined,
  event: OrderStreamEvent,
): OrderProgress | undefined {
  if (!event.streamName.startsWith(STREAM_PREFIX.order)) return progress;
  const status = STATUS_AFTER[event.type];
  if (status === undefined) return progress;
  if (event.type === 'OrderPlaced') {
    if (progress !== undefined) return progress;
    const placed = Placed.safeParse(event.data);
    return {
      orderId: event.orderId,
      status,
      placedAt: placed.success ? placed.data.placedAt : null,
      deadlines: placed.success ? placed.data.deadlines : null,
      cancellationReason: null,
    };
  }
  if (progress === undefined) return undefined;
  const reason = WithReason.safeParse(event.data);
  return {
    ...progress,
    status,
    cancellationReason: reason.success ? reason.data.reason : progress.cancellationReason,
  };
}

/** The deadline that guards the step an order waits for, besides the overall one. */
const STEP_DEADLINE: Partial<Record<OrderStatus, 'inventory' | 'payment'>> = {
  awaiting_inventory: 'inventory',
  awaiting_payment: 'payment',
};

export interface PassedDeadline {
  readonly deadline: 'inventory' | 'payment' | 'complete';
  readonly dueAt: string;
  readonly overdueMs: number;
}

/**
 * The deadlines an unfinished order has passed by more than `graceMs`: the
 * one of the step it still waits for, and the overall one. The order
 * service's timer cancels such an order within its poll interval, so past
 * the grace it is stuck: the timer is not running, or a compensation still
 * retries after `completeBy`.
 *
 * @example
 * passedDeadlines(progress, { now: new Date(), graceMs: 5_000 }); // [{ deadline: 'payment', ... }]
 */
export function passedDeadlines(
  progress: OrderProgress,
  input: { now: Date; graceMs: number },
): PassedDeadline[] {
  const { deadlines, status } = progress;
  if (deadlines === null || TERMINAL_STATUSES.has(status)) return [];
  const step = STEP_DEADLINE[status];
  const guarding: PassedDeadline['deadline'][] =
    step === undefined ? ['complete'] : [step, 'complete'];
  const dueAtOf = {
    inventory: deadlines.inventoryBy,
    payment: deadlines.paymentBy,
    complete: deadlines.completeBy,
  };
  return guarding.flatMap((deadline) => {
    const dueAt = dueAtOf[deadline];
    const overdueMs = input.now.getTime() - Date.parse(dueAt);
    return overdueMs > input.graceMs ? [{ deadline, dueAt, overdueMs }] : [];
  });
}
