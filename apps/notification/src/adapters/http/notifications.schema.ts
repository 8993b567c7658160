// The notification service's HTTP bodies. Internal to this service (the
// gateway does not expose them), so they live here and not in the contracts.
import { NotificationKind, OrderId, Timestamp } from '@effectively-once/contracts';
import { z } from 'zod';

export const ListNotificationsQuery = z.object({ orderId: OrderId });

export const SentNotification = z.object({
  orderId: OrderId,
  kind: NotificationKind,
  /** The Message-ID header of the email, angle brackets included. */
  emailMessageId: z.string(),
  recipient: z.string(),
  sentAt: Timestamp,
});
export type SentNotification = z.infer<typeof SentNotification>;

export const NotificationList = z
  .object({ notifications: z.array(SentNotification) })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof NotificationList>;
