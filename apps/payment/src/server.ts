// The payment service's composition root: `node --import tsx apps/payment/src/server.ts`.
// Loads the settings, opens the card processor's client and runs the service's
// declaration (payment-service.ts); runService opens, starts, serves and shuts
// it down (docs/service-bootstrap.md).
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
import { serviceLineageRoute } from '@effectively-once/service-kit/lineage';
// lab:end
import type { PaymentDatabase } from './adapters/postgres/payment.database.js';
import { createPaymentProviderClient } from './adapters/provider/payment-provider.client.js';
import { loadPaymentConfig } from './config.js';
import { paymentService } from './payment-service.js';

const config = loadPaymentConfig();
const provider = createPaymentProviderClient({
  baseUrl: config.PAYMENT_PROVIDER_URL,
  timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
});

await runService<PaymentDatabase>({
  ...paymentService({ config, provider }),
  // lab:begin
  // Only the lab's console asks it (ADR 0019).
  routes: [serviceLineageRoute()],
  extension: openFaultInjection,
  // lab:end
});
