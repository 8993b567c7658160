import type { ColumnType, Selectable } from 'kysely';

/**
 * The orders whose cancellation reached this service. Written before the
 * attempt is read, so a payment request processed later knows not to start one.
 */
export interface PaymentCancellationTable {
  order_id: string;
  created_at: ColumnType<Date, Date, never>;
}

export type PaymentCancellationRow = Selectable<PaymentCancellationTable>;
