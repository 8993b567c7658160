import type { OutcomeListener, ProcessResult } from '@effectively-once/idempotency';
import type { DeliveryAttempt, StepReporter } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';
import type { PaymentProvider } from '../adapters/provider/payment-provider.client.js';

/** What the payment consumer's handlers need; plain values, so tests pass their own. */
export interface PaymentHandlerDeps {
  db: Kysely<PaymentDatabase>;
  provider: PaymentProvider;
  now: () => Date;
  onOutcome?: OutcomeListener;
  /** Where the handlers report the steps of their crash windows; nobody hears them when absent. */
  steps?: StepReporter;
}

/** processOnce's result, or `ignored` for an event this consumer does not handle. */
export type PaymentHandleResult = ProcessResult<string> | { outcome: 'ignored' };

/** A handler called outside a subscription (tests, the operations routes) has the whole budget ahead. */
export const FIRST_DELIVERY: DeliveryAttempt = {
  retryCount: 0,
  maxRetryCount: Number.MAX_SAFE_INTEGER,
};
