// The payment service's HTTP face, built from its dependencies: server.ts
// listens with it, tests call `inject` on it.
import type { EventStore } from '@effectively-once/event-store';
import {
  createServiceApp,
  type FastifyZodInstance,
  type ServiceMetrics,
} from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { registerGetPaymentRoute } from './get-payment/get-payment.route.js';
import type { PaymentDatabase } from './adapters/postgres/payment.database.js';

export interface PaymentAppDeps {
  db: Kysely<PaymentDatabase>;
  store: EventStore;
  metrics: ServiceMetrics;
  logLevel?: string;
  /** `false` silences request logs (tests). */
  logger?: boolean;
}

/**
 * @example
 * const app = buildApp({ db, store, metrics, logger: false });
 * const reply = await app.inject({ method: 'GET', url: `/payments/${orderId}` });
 */
export function buildApp(deps: PaymentAppDeps): FastifyZodInstance {
  const app = createServiceApp({
    service: 'payment',
    db: deps.db,
    store: deps.store,
    metrics: deps.metrics,
    logLevel: deps.logLevel,
    logger: deps.logger,
  });
  registerGetPaymentRoute(app, { db: deps.db });
  return app;
}
