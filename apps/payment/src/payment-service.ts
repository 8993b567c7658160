// The payment service as one declaration: server.ts runs it with runService
// (docs/service-bootstrap.md), and a test can start this very declaration
// with startService. Every saga service has this file (ADR 0038).
import type { ServiceDeclaration } from '@effectively-once/service-kit';
import type { PaymentDatabase } from './adapters/postgres/payment.database.js';
import { paymentDatabaseMigrations } from './adapters/postgres/payment.migrations.js';
import type { PaymentProvider } from './adapters/provider/payment-provider.client.js';
import { buildApp } from './app.js';
import type { PaymentConfig } from './config.js';
import { paymentAuthorizationConsumer } from './payment-authorization/payment-authorization.consumer.js';

/**
 * @example
 * await runService<PaymentDatabase>(paymentService({ config, provider }));
 */
export function paymentService(input: {
  config: PaymentConfig;
  /** The card processor's client. */
  provider: PaymentProvider;
}): ServiceDeclaration<PaymentDatabase> {
  const { config, provider } = input;
  return {
    config,
    migrations: paymentDatabaseMigrations,
    buildApp: ({ db, store, metrics }) =>
      buildApp({ db, store, metrics, logLevel: config.logLevel }),
    consumers: (context) => [paymentAuthorizationConsumer({ ...context, provider })],
    outbox: { relay: true },
  };
}
