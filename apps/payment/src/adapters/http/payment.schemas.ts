// The body of GET /payments/:orderId. Internal to this service (an operator's
// and the tests' view), so it lives here rather than in the public contracts.
import { OrderId, PaymentAttemptId } from '@effectively-once/contracts';
import { z } from 'zod';

export const PaymentParams = z.object({ orderId: OrderId });

/** The attempt as recorded; the payment token stays inside the service. */
export const PaymentResponse = z
  .object({
    attemptId: PaymentAttemptId,
    orderId: OrderId,
    amountCents: z.number().int().positive(),
    status: z.enum(['pending', 'authorized', 'declined', 'voided']),
    authorizationId: z.string().nullable(),
    declineReason: z.string().nullable(),
    createdAt: z.iso.datetime({ offset: true }),
    updatedAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'Payment' });
export type PaymentResponse = z.infer<typeof PaymentResponse>;
