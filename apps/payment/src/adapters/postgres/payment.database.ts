import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';
import type { PaymentAttemptTable } from './payment-attempt.table.js';
import type { PaymentCancellationTable } from './payment-cancellation.table.js';

/** The payment service's database: its own tables, the consumer markers and the outbox. */
export interface PaymentDatabase extends IdempotencyTables, OutboxTables {
  payment_attempt: PaymentAttemptTable;
  payment_cancellation: PaymentCancellationTable;
}
