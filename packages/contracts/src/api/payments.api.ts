// The payment service's view of an order's payment attempt, public through the
// gateway as GET /api/payments/:orderId. The payment token never leaves the service.
import { z } from 'zod';
import { OrderId, PaymentAttemptId, Timestamp } from '../events/values.js';

export const PaymentParams = z.object({ orderId: OrderId });

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
export type PaymentView = z.infer<typeof PaymentView>;
