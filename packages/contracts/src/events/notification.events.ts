// Events of the notification service, stream `notification-<orderId>`.
import { z } from 'zod';
import { defineEvent, type EventOf } from './message.js';
import { OrderId, Timestamp } from './values.js';

export const NotificationKind = z.enum(['order_confirmed', 'order_cancelled']);
export type NotificationKind = z.infer<typeof NotificationKind>;

export const CustomerNotified = defineEvent(
  'CustomerNotified',
  1,
  z.object({
    orderId: OrderId,
    kind: NotificationKind,
    emailMessageId: z.string().min(3).max(255),
    sentAt: Timestamp,
  }),
);

export const notificationEvents = [CustomerNotified] as const;

export type NotificationEvent = EventOf<(typeof notificationEvents)[number]>;
