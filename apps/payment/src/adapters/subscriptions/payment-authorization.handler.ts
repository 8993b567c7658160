// The consumer payment-authorization-v1 reads the order streams: it acts on
// two order events and acknowledges every other one as ignored.
import type { KnownEvent, KnownEventType } from '@effectively-once/contracts';
import type { OrderingKey, RecordedEvent } from '@effectively-once/event-store';
import { handleCancellationRequested } from './cancellation-requested.handler.js';
import type { PaymentHandleResult, PaymentHandlerDeps } from './handler-deps.js';
import { handlePaymentRequested } from './payment-requested.handler.js';

/** The events this consumer acts on: its subscription group receives only these. */
export const PAYMENT_AUTHORIZATION_EVENTS = [
  'OrderPaymentRequested',
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
): Promise<PaymentHandleResult> {
  switch (event.type) {
    case 'OrderPaymentRequested':
      return handlePaymentRequested(deps, event, recorded);
    case 'OrderCancellationRequested':
      return handleCancellationRequested(deps, event, recorded);
    // Facts for other services, and events of streams this consumer does not
    // read: listed, so a new event type is a decision here, not a silent default.
    case 'OrderPlaced':
    case 'OrderConfirmed':
    case 'OrderCancelled':
    case 'InventoryReserved':
    case 'InventoryReservationRejected':
    case 'InventoryReleased':
    case 'PaymentAuthorized':
    case 'PaymentDeclined':
    case 'PaymentVoided':
    case 'CustomerNotified':
      return { outcome: 'ignored' };
  }
}
