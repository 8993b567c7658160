// payment-authorization-v1 as the service declares it to runService: the
// subscription group, its filter, its ordering key and the operator's replay
// all come from this one entry (docs/service-bootstrap.md).
import type { DeclaredConsumer, ServiceContext } from '@effectively-once/service-kit';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';
import type { PaymentProvider } from '../adapters/provider/payment-provider.client.js';
import {
  handlePaymentAuthorization,
  PAYMENT_AUTHORIZATION_EVENTS,
  PAYMENT_AUTHORIZATION_ORDERING,
  PAYMENT_MUST_COMPLETE,
} from './payment-authorization.handler.js';
import { paymentAuthorization } from './process-payment-message.js';

/**
 * @example
 * consumers: (context) => [paymentAuthorizationConsumer({ ...context, provider })],
 */
export function paymentAuthorizationConsumer(
  context: Pick<ServiceContext<PaymentDatabase>, 'db' | 'now' | 'metrics' | 'steps'> & {
    provider: PaymentProvider;
  },
): DeclaredConsumer {
  const { db, provider, now, metrics, steps } = context;
  return {
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
  };
}
