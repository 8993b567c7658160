// The payment service's composition root: `node --import tsx apps/payment/src/server.ts`.
// A declaration; runService opens, starts, serves and shuts it down
// (docs/service-bootstrap.md).
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
import { serviceLineageRoute } from '@effectively-once/service-kit/lineage';
// lab:end
import { buildApp } from './app.js';
import { loadPaymentConfig } from './config.js';
import type { PaymentDatabase } from './adapters/postgres/payment.database.js';
import { paymentDatabaseMigrations } from './adapters/postgres/payment.migrations.js';
import { createPaymentProviderClient } from './adapters/provider/payment-provider.client.js';
import {
  handlePaymentAuthorization,
  PAYMENT_AUTHORIZATION_EVENTS,
  PAYMENT_AUTHORIZATION_ORDERING,
  PAYMENT_MUST_COMPLETE,
} from './adapters/subscriptions/payment-authorization.handler.js';
import { paymentAuthorization } from './adapters/subscriptions/payment-authorization.consumer.js';

const config = loadPaymentConfig();
const provider = createPaymentProviderClient({
  baseUrl: config.PAYMENT_PROVIDER_URL,
  timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
});

await runService<PaymentDatabase>({
  config,
  migrations: paymentDatabaseMigrations,
  buildApp: ({ db, store, metrics }) => buildApp({ db, store, metrics, logLevel: config.logLevel }),
  consumers: ({ db, now, metrics, steps }) => [
    {
      consumer: paymentAuthorization,
      eventTypes: PAYMENT_AUTHORIZATION_EVENTS,
      orderingKey: PAYMENT_AUTHORIZATION_ORDERING,
      compensations: PAYMENT_MUST_COMPLETE,
      handle: (event, recorded, attempt) =>
        handlePaymentAuthorization(
          { db, provider, now, onOutcome: metrics.consumerOutcome, steps },
          event,
          recorded,
          attempt,
        ),
    },
  ],
  outbox: { relay: true },
  // lab:begin
  // Only the lab's console asks it (ADR 0019).
  routes: [serviceLineageRoute()],
  extension: openFaultInjection,
  // lab:end
});
