// Whether an order event can have been written by the order service, from
// where it was found alone: no read, so a consumer can ask it of every
// delivery. The order service writes an order's events only into that
// order's stream, and the first one is always OrderPlaced (placement appends
// it to a stream that must not exist). An OrderConfirmed or an
// OrderPaymentRequested at revision 0 therefore belongs to an order that was
// never placed, and one in another order's stream to no order of that stream:
// a forged or misfiled event that no redelivery makes right.
import { orderStream } from './streams.js';

export interface DeliveredOrderEvent {
  readonly type: string;
  /** The order the event's payload names. */
  readonly orderId: string;
  /** Where the event store holds it, and at which 0-based revision. */
  readonly streamName: string;
  readonly revision: bigint;
}

/**
 * Why the order service cannot have written this event, or undefined when it can have.
 * A consumer with an effect outside its own database (a card authorization,
 * an email) refuses such an event terminally: it is parked with the reason.
 *
 * @example
 * notWrittenByTheOrderService({ type: 'OrderConfirmed', orderId: 'o1', streamName: 'order-o1', revision: 0n });
 * // 'OrderConfirmed is the first event of order-o1: order o1 was never placed ...'
 */
export function notWrittenByTheOrderService(event: DeliveredOrderEvent): string | undefined {
  const ownStream = orderStream(event.orderId);
  if (event.streamName !== ownStream) {
    return `${event.type} of order ${event.orderId} is in ${event.streamName}, not in ${ownStream}: the order service did not write it there.`;
  }
  if (event.revision === 0n && event.type !== 'OrderPlaced') {
    return `${event.type} is the first event of ${ownStream}: order ${event.orderId} was never placed (the order service begins every order stream with OrderPlaced).`;
  }
  return undefined;
}
