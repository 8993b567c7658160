// OrderConfirmed against a real payment database and the real card processor
// over HTTP: the authorization is captured once, whatever is redelivered and
// wherever the process stops.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import {
  failingAtStep,
  failOnNetworkInsideTransactions,
} from '@effectively-once/service-kit/testing';
import { describe, expect, it } from 'vitest';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';
import { paymentDatabaseMigrations } from '../adapters/postgres/payment.migrations.js';
import { findAttemptByOrder } from '../adapters/postgres/payment-attempt.repository.js';
import {
  authorizeKey,
  createPaymentProviderClient,
} from '../adapters/provider/payment-provider.client.js';
import { orderConfirmed, paymentRequested } from '../testing/order-events.fixtures.js';
import { markersOf, outboxEventsOf } from '../testing/payment-database.inspect.js';
import { startPaymentProvider } from '../testing/payment-provider.harness.js';
import {
  countingProvider,
  crashingAfterCapture,
  unavailableProvider,
} from '../testing/provider-doubles.js';
import type { PaymentHandlerDeps } from './handler-deps.js';
import { handleOrderConfirmed } from './order-confirmed.handler.js';
import { handlePaymentRequested } from './payment-requested.handler.js';

const { db } = await createTestDatabase<PaymentDatabase>(paymentDatabaseMigrations);
failOnNetworkInsideTransactions();
const provider = await startPaymentProvider({ timeoutDelayMs: 30_000 });
const client = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 5_000 });
const depsWith = (paymentProvider: PaymentHandlerDeps['provider']): PaymentHandlerDeps => ({
  db,
  provider: paymentProvider,
  now: () => new Date(),
});

/** An order whose payment is authorized: the request handled, as the saga's confirmation follows. */
async function authorizedOrder() {
  const requested = paymentRequested({ amountCents: 2_500 });
  await handlePaymentRequested(depsWith(client), requested.event, requested.recorded);
  const { orderId, paymentAttemptId } = requested.event.data;
  const attempt = await findAttemptByOrder(db, { orderId });
  if (attempt?.status !== 'authorized') throw new Error('expected an authorized attempt');
  return { orderId, paymentAttemptId, authorizationId: attempt.authorizationId };
}

describe('OrderConfirmed', () => {
  it('captures the authorization once: the ledger shows it captured, the attempt captured, one PaymentCaptured', async () => {
    const { orderId, paymentAttemptId, authorizationId } = await authorizedOrder();
    const confirmed = orderConfirmed(orderId, authorizationId);

    const result = await handleOrderConfirmed(
      depsWith(client),
      confirmed.event,
      confirmed.recorded,
    );

    expect(result).toMatchObject({ outcome: 'applied', result: 'captured' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toMatchObject([
      { authorizationId, status: 'captured' },
    ]);
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'captured' });
    expect(await outboxEventsOf(db, orderId)).toMatchObject([
      { type: 'PaymentAuthorized' },
      {
        type: 'PaymentCaptured',
        data: { orderId, paymentAttemptId, authorizationId, amountCents: 2_500 },
        metadata: { causationId: confirmed.recorded.id },
      },
    ]);
  });

  it('redelivered after the commit: a duplicate, no second capture call', async () => {
    const { orderId, authorizationId } = await authorizedOrder();
    const confirmed = orderConfirmed(orderId, authorizationId);
    const counting = countingProvider(client);
    await handleOrderConfirmed(depsWith(counting), confirmed.event, confirmed.recorded);

    const again = await handleOrderConfirmed(
      depsWith(counting),
      confirmed.event,
      confirmed.recorded,
    );

    expect(again).toMatchObject({ outcome: 'duplicate' });
    expect(counting.calls.capture).toBe(1);
    expect((await outboxEventsOf(db, orderId)).map((event) => event.type)).toEqual([
      'PaymentAuthorized',
      'PaymentCaptured',
    ]);
  });

  it('crash after the processor captured, before the commit: the redelivery captures with the same key and records it once', async () => {
    const { orderId, paymentAttemptId, authorizationId } = await authorizedOrder();
    const confirmed = orderConfirmed(orderId, authorizationId);

    await expect(
      handleOrderConfirmed(
        depsWith(crashingAfterCapture(client)),
        confirmed.event,
        confirmed.recorded,
      ),
    ).rejects.toThrow('simulated crash after the provider captured');
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'authorized' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toMatchObject([
      { status: 'captured' },
    ]);
    expect(await markersOf(db, confirmed.recorded.id)).toBe(0);

    const retried = await handleOrderConfirmed(
      depsWith(client),
      confirmed.event,
      confirmed.recorded,
    );

    expect(retried).toMatchObject({ outcome: 'applied', result: 'captured' });
    expect((await outboxEventsOf(db, orderId)).map((event) => event.type)).toEqual([
      'PaymentAuthorized',
      'PaymentCaptured',
    ]);
  });

  it('reports the step provider-captured with the message facts', async () => {
    const { orderId, authorizationId } = await authorizedOrder();
    const confirmed = orderConfirmed(orderId, authorizationId);
    const steps = failingAtStep('provider-captured');

    await expect(
      handleOrderConfirmed({ ...depsWith(client), steps }, confirmed.event, confirmed.recorded),
    ).rejects.toThrow('failed at step provider-captured');

    expect(steps.seen).toEqual([
      {
        step: 'provider-captured',
        facts: {
          consumer: 'payment-authorization-v1',
          eventType: 'OrderConfirmed',
          orderId,
          messageId: confirmed.recorded.id,
        },
      },
    ]);
  });

  it('the processor down: a retryable failure, nothing recorded', async () => {
    const { orderId, authorizationId } = await authorizedOrder();
    const confirmed = orderConfirmed(orderId, authorizationId);

    await expect(
      handleOrderConfirmed(
        depsWith(unavailableProvider(client, 'connection refused')),
        confirmed.event,
        confirmed.recorded,
      ),
    ).rejects.toMatchObject({ kind: 'retryable' });

    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'authorized' });
    expect(await markersOf(db, confirmed.recorded.id)).toBe(0);
  });

  it('an order confirmed with no payment attempt: a terminal failure (a contradiction upstream)', async () => {
    const confirmed = orderConfirmed(paymentRequested().event.data.orderId, 'auth-x');

    await expect(
      handleOrderConfirmed(depsWith(client), confirmed.event, confirmed.recorded),
    ).rejects.toMatchObject({ kind: 'terminal' });
  });
});
