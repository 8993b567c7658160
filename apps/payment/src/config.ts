// The payment service's settings: the kit's base keys (HOST, PORT, DATABASE_URL,
// EVENT_STORE_DATABASE_URL or EVENTSTORE_CONNECTION_STRING, LOG_LEVEL) plus the provider's.
import { loadServiceConfig } from '@effectively-once/service-kit';
import { z } from 'zod';

export const PAYMENT_DEFAULT_PORT = 3003;

const paymentEnv = {
  /** Where the card processor listens. */
  PAYMENT_PROVIDER_URL: z.url().default('http://127.0.0.1:3005'),
  /** Per provider request; past it the message is retried with the same idempotency key. */
  PAYMENT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
};

export type PaymentConfig = ReturnType<typeof loadPaymentConfig>;

/**
 * @example
 * const config = loadPaymentConfig();
 * config.PAYMENT_PROVIDER_URL; // 'http://127.0.0.1:3005' unless set
 */
export function loadPaymentConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadServiceConfig({
    service: 'payment',
    defaultPort: PAYMENT_DEFAULT_PORT,
    extra: paymentEnv,
    env,
  });
}
