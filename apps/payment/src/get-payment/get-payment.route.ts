import { ProblemDetails } from '@effectively-once/contracts';
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { findAttemptRowByOrder } from '../adapters/postgres/payment-attempt.repository.js';
import type { PaymentAttemptRow } from '../adapters/postgres/payment-attempt.table.js';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';
import { PaymentParams, PaymentView } from '@effectively-once/contracts';

/**
 * GET /payments/:orderId → the order's payment attempt, or a 404 problem
 * (PAYMENT_NOT_FOUND) while no payment was requested for it.
 *
 * @example
 * registerGetPaymentRoute(app, { db });
 */
export function registerGetPaymentRoute(
  app: FastifyZodInstance,
  deps: { db: Kysely<PaymentDatabase> },
): void {
  app.get(
    '/payments/:orderId',
    {
      schema: {
        params: PaymentParams,
        response: { 200: PaymentView, 404: ProblemDetails },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const row = await findAttemptRowByOrder(deps.db, orderId);
      if (row === undefined) {
        throw new ProblemError({
          status: 404,
          code: 'PAYMENT_NOT_FOUND',
          title: 'No payment for this order',
          detail: `No payment was requested for order ${orderId}.`,
        });
      }
      return toPaymentView(row);
    },
  );
}

function toPaymentView(row: PaymentAttemptRow): PaymentView {
  return {
    attemptId: row.attempt_id,
    orderId: row.order_id,
    amountCents: row.amount_cents,
    status: row.status,
    authorizationId: row.authorization_id,
    declineReason: row.decline_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
