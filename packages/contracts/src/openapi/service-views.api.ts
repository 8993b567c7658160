// Bodies of the read-only views the gateway exposes that the services still
// define inside their own apps (apps/payment, apps/notification, apps/inventory,
// apps/payment-provider).
// Mirrored here so the public document can describe them; they belong in
// ../api/ next to the others, where the services and this builder can share
// one definition.
import { z } from 'zod';
import { StockLevel } from '../api/inventory.api.js';
import { IdempotencyKey } from '../api/orders.api.js';
import { NotificationKind } from '../events/notification.events.js';
import { OrderId, PaymentAttemptId, Timestamp } from '../events/values.js';

/** GET /payments/:orderId of the payment service; the payment token stays inside it. */
export const PaymentView = z
  .object({
    attemptId: PaymentAttemptId,
    orderId: OrderId,
    amountCents: z.number().int().positive(),
    status: z.enum(['pending', 'authorized', 'declined', 'voided']),
    authorizationId: z.string().nullable(),
    declineReason: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Payment' });

export const ListNotificationsQuery = z.object({ orderId: OrderId });

/** GET /notifications?orderId= of the notification service: the emails sent for one order. */
export const NotificationList = z
  .object({
    notifications: z.array(
      z.object({
        orderId: OrderId,
        kind: NotificationKind,
        emailMessageId: z.string().meta({
          description: 'The Message-ID header of the email, angle brackets included.',
        }),
        recipient: z.string(),
        sentAt: Timestamp,
      }),
    ),
  })
  .meta({ id: 'NotificationList' });

/** GET /ledger of the payment provider: only the authorizations made with this key. */
export const LedgerQuery = z.object({ idempotencyKey: IdempotencyKey.optional() });

/** GET /inventory of the inventory service. */
export const StockLevelList = z
  .object({ stockLevels: z.array(StockLevel) })
  .meta({ id: 'StockLevelList' });
