// Which email an event asks for. Only the order's final outcomes reach the
// customer; every other event of the contracts asks for none.
import type { KnownEvent } from '@effectively-once/contracts';
import type { NotificationRequest } from './notification.js';

/**
 * The email `event` asks for, or `null` when it asks for none.
 *
 * @example
 * const request = notificationFor(event);
 * if (request !== null) await send(composeEmail(request));
 */
export function notificationFor(event: KnownEvent): NotificationRequest | null {
  switch (event.type) {
    case 'OrderConfirmed':
      return {
        kind: 'order_confirmed',
        orderId: event.data.orderId,
        recipient: event.data.customerEmail,
      };
    case 'OrderCancelled':
      return {
        kind: 'order_cancelled',
        orderId: event.data.orderId,
        recipient: event.data.customerEmail,
        reason: event.data.reason,
        released: event.data.released,
      };
    // Listed one by one so a new event type must be decided here, not ignored by default.
    case 'OrderPlaced':
    case 'OrderPaymentRequested':
    case 'OrderCancellationRequested':
    case 'OrderCompensated':
    case 'InventoryReserved':
    case 'InventoryReservationRejected':
    case 'InventoryReleased':
    case 'PaymentAuthorized':
    case 'PaymentDeclined':
    case 'PaymentVoided':
    case 'PaymentCaptured':
    case 'PaymentNothingToVoid':
    case 'PaymentUnavailable':
    case 'CustomerNotified':
      return null;
    default:
      return unreachable(event);
  }
}

function unreachable(event: never): never {
  throw new Error(`Unhandled event ${JSON.stringify(event)}`);
}
