import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/**
 * One attempt to take the order's payment. `attempt_id` (`<orderId>:1`) is the
 * provider's idempotency key, so every retry reuses the same authorization;
 * `order_id` is unique: one attempt per order.
 */
export interface PaymentAttemptTable {
  attempt_id: string;
  order_id: string;
  amount_cents: number;
  payment_token: string;
  status: 'pending' | 'authorized' | 'declined' | 'voided' | 'captured' | 'abandoned';
  authorization_id: string | null;
  decline_reason: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: ColumnType<Date, Date, Date>;
}

export type PaymentAttemptRow = Selectable<PaymentAttemptTable>;
export type NewPaymentAttemptRow = Insertable<PaymentAttemptTable>;
export type PaymentAttemptUpdate = Updateable<PaymentAttemptTable>;
