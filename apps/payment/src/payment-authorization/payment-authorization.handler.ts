// The consumer payment-authorization-v1 reads the order streams: it acts on
// three order events (authorize, capture, void), PAYMENT_AUTHORIZATION_EVENTS,
// and acknowledges any other one that reaches it as ignored.
import { isEventOf, type KnownEvent, type KnownEventType } from '@effectively-once/contracts';
import type { OrderingKey, RecordedEvent } from '@effectively-once/event-store';
import { handleCancellationRequested } from './cancellation-requested.handler.js';
import type { DeliveryAttempt } from '@effectively-once/service-kit';
import {
  FIRST_DELIVERY,
  type PaymentHandleResult,
  type PaymentHandlerDeps,
} from './handler-deps.js';
import { handleOrderConfirmed } from './order-confirmed.handler.js';
import { handlePaymentRequested } from './payment-requested.handler.js';

/** The events this consumer acts on: its subscription group receives only these. */
export const PAYMENT_AUTHORIZATION_EVENTS = [
  'OrderPaymentRequested',
  'OrderConfirmed',
  'OrderCancellationRequested',
] as const satisfies readonly KnownEventType[];

/**
 * The steps that must happen once the saga decided them: the void of a
 * cancelled order (a compensation) and the capture of a confirmed one. A
 * transient failure of theirs (the processor down) is retried until it
 * succeeds and never parked for it; a crash still counts toward parking.
 */
export const PAYMENT_MUST_COMPLETE = [
  'OrderConfirmed',
  'OrderCancellationRequested',
] as const satisfies readonly KnownEventType[];

/**
 * One order's payment messages one at a time, in log order, so an order's
 * void never overtakes its authorization, and an order whose authorization
 * keeps failing holds up no other order. A cancellation may pass a parked
 * request: the order must be able to end, and the void settles whatever the
 * parked request left (docs/ordering-keys.md).
 */
export const PAYMENT_AUTHORIZATION_ORDERING: OrderingKey = {
  source: { from: 'metadata', field: 'correlationId' },
  supersedeParkedWith: ['OrderCancellationRequested'],
};

/**
 * @example
 * startConsumer({ ..., handle: (event, recorded) => handlePaymentAuthorization(deps, event, recorded) });
 */
export async function handlePaymentAuthorization(
  deps: PaymentHandlerDeps,
  event: KnownEvent,
  recorded: RecordedEvent,
  delivery: DeliveryAttempt = FIRST_DELIVERY,
): Promise<PaymentHandleResult> {
  // The subscription's filter keeps the rest away; a replay may not.
  if (!isEventOf(PAYMENT_AUTHORIZATION_EVENTS, event)) return { outcome: 'ignored' };
  switch (event.type) {
    case 'OrderPaymentRequested':
      return handlePaymentRequested(deps, event, recorded, delivery);
    case 'OrderConfirmed':
      return handleOrderConfirmed(deps, event, recorded);
    case 'OrderCancellationRequested':
      return handleCancellationRequested(deps, event, recorded);
  }
}
