// An order as loaded from its stream (state, revision, timeline, trace), and
// the pure helpers around it: the cause the commands' event ids derive from,
// the time each event carries. Domain code, so deciders, projections and
// handlers share it without reaching into the event-store adapter
// (adapters/eventStore/order-stream.ts loads and appends).
import type { OrderEvent } from '@effectively-once/contracts';
import type { OrderState } from './order.state.js';

/**
 * The cause of the commands on an order: each appends at most once per order
 * (ExpireOrder too: whichever deadline appends first moves the order to
 * cancelling, and every later one decides nothing).
 */
export const commandCause = (
  command: 'PlaceOrder' | 'CancelOrder' | 'ExpireOrder',
  orderId: string,
): string => `${command}:${orderId}`;

export interface TimelineEntry {
  readonly eventId: string;
  readonly type: OrderEvent['type'];
  readonly version: number;
  /** The time the event carries: when its decision was made. */
  readonly occurredAt: string;
}

/**
 * The time an order event carries. The timeline takes it from the event, not
 * from the store's record time, so an order folded right after an append (see
 * order-command/fold-appended.ts) reads the same as the order loaded later.
 */
export function occurredAtOf(event: OrderEvent): string {
  switch (event.type) {
    case 'OrderPlaced':
      return event.data.placedAt;
    case 'OrderPaymentRequested':
    case 'OrderCancellationRequested':
      return event.data.requestedAt;
    case 'OrderConfirmed':
      return event.data.confirmedAt;
    case 'OrderCompensated':
      return event.data.compensatedAt;
    case 'OrderCancelled':
      return event.data.cancelledAt;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export interface LoadedOrder {
  readonly state: OrderState;
  /** The revision of the stream's last event: the expected revision of the next append. */
  readonly revision: bigint | 'no_stream';
  readonly timeline: readonly TimelineEntry[];
  /**
   * The trace the order was placed in: the trace-id of its first event's
   * traceparent (docs/observability.md#traces); undefined when none was sent.
   */
  readonly traceId: string | undefined;
  /**
   * Its first event's W3C traceparent: what the order's later work that no
   * message carries (a deadline timer firing) hangs its span under.
   */
  readonly traceparent: string | undefined;
}

const TRACE_ID_OF_TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-/;

/** `00-4bf9…4736-00f0…02b7-01` → `4bf9…4736`; undefined for no traceparent. */
export function traceIdOfTraceparent(traceparent: string | undefined): string | undefined {
  return TRACE_ID_OF_TRACEPARENT.exec(traceparent ?? '')?.[1];
}
