// Which email an event asks for. Only the order's final outcomes reach the
// customer; every other event of the contracts asks for none, and is not
// named here: NOTIFICATION_EMAIL_EVENTS is the one list.
import type { EventOfTypes, KnownEventType } from '@effectively-once/contracts';
import type { NotificationRequest } from './notification.js';

/** The events that ask for an email: the consumer's subscription group receives only these. */
export const NOTIFICATION_EMAIL_EVENTS = [
  'OrderConfirmed',
  'OrderCancelled',
] as const satisfies readonly KnownEventType[];

export type EmailingEvent = EventOfTypes<typeof NOTIFICATION_EMAIL_EVENTS>;

/**
 * The email `event` asks for.
 *
 * @example
 * if (isEventOf(NOTIFICATION_EMAIL_EVENTS, event)) await send(composeEmail(notificationFor(event)));
 */
export function notificationFor(event: EmailingEvent): NotificationRequest {
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
  }
}
