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
    /**
     * `captured`: the order was confirmed and the money taken. `abandoned`: the
     * card processor stayed unavailable and the attempt's key was closed there
     * with nothing authorized.
     */
    status: z.enum(['pending', 'authorized', 'declined', 'voided', 'captured', 'abandoned']),
    authorizationId: z.string().nullable(),
    declineReason: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Payment' });
export type PaymentView = z.infer<typeof PaymentView>;
