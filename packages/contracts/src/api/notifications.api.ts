// The emails the notification service sent for one order, public through the
// gateway as GET /api/notifications?orderId=.
import { z } from 'zod';
import { NotificationKind } from '../events/notification.events.js';
import { OrderId, Timestamp } from '../events/values.js';

export const ListNotificationsQuery = z.object({ orderId: OrderId });

export const SentNotification = z.object({
  orderId: OrderId,
  kind: NotificationKind,
  emailMessageId: z.string().meta({
    description: 'The Message-ID header of the email, angle brackets included.',
  }),
  recipient: z.string(),
  sentAt: Timestamp,
});
export type SentNotification = z.infer<typeof SentNotification>;

export const NotificationList = z
  .object({ notifications: z.array(SentNotification) })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof NotificationList>;
