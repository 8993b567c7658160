// OrderPaymentRequested against a real payment database and the real payment
// provider over HTTP: one authorization per order, whatever is redelivered and
// wherever the process stops.
import { randomUUID } from 'node:crypto';
import { ConsumerFailure, terminalFailure } from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';
import { paymentDatabaseMigrations } from '../adapters/postgres/payment.migrations.js';
import { findAttemptByOrder } from '../adapters/postgres/payment-attempt.repository.js';
import {
  authorizeKey,
  createPaymentProviderClient,
  type PaymentProvider,
} from '../adapters/provider/payment-provider.client.js';
import {
  failingAtStep,
  failOnNetworkInsideTransactions,
} from '@effectively-once/service-kit/testing';
import { paymentRequested } from '../testing/order-events.fixtures.js';
import { markersOf, outboxEventsOf } from '../testing/payment-database.inspect.js';
import { startPaymentProvider } from '../testing/payment-provider.harness.js';
import {
  countingProvider,
  crashingAfterAuthorize,
  crashingBeforeAuthorize,
  unavailableProvider,
} from '../testing/provider-doubles.js';
import type { PaymentHandlerDeps } from './handler-deps.js';
import { handlePaymentRequested } from './payment-requested.handler.js';

const { db } = await createTestDatabase<PaymentDatabase>(paymentDatabaseMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
// tok_timeout replies are held far longer than any client here waits.
const provider = await startPaymentProvider({ timeoutDelayMs: 30_000 });
const client = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 5_000 });
const now = () => new Date();

const depsWith = (paymentProvider: PaymentProvider): PaymentHandlerDeps => ({
  db,
  provider: paymentProvider,
  now,
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the handler to fail'),
    (error: unknown) => error,
  );
}

describe('OrderPaymentRequested', () => {
  it('approved: one authorization in the ledger, the attempt authorized, one PaymentAuthorized in the outbox', async () => {
    const { event, recorded } = paymentRequested({
      paymentToken: 'tok_approve',
      amountCents: 4_000,
    });
    const { orderId, paymentAttemptId } = event.data;

    const result = await handlePaymentRequested(depsWith(client), event, recorded);

    expect(result).toMatchObject({ outcome: 'applied', result: 'authorized' });
    const ledger = await provider.ledger(authorizeKey(paymentAttemptId));
    expect(ledger).toHaveLength(1);
    const authorizationId = ledger[0]!.authorizationId;
    expect(await findAttemptByOrder(db, { orderId })).toEqual({
      attemptId: paymentAttemptId,
      orderId,
      amountCents: 4_000,
      paymentToken: 'tok_approve',
      status: 'authorized',
      authorizationId,
    });
    expect(await outboxEventsOf(db, orderId)).toEqual([
      {
        type: 'PaymentAuthorized',
        data: {
          orderId,
          paymentAttemptId,
          authorizationId,
          amountCents: 4_000,
          authorizedAt: expect.any(String) as unknown,
        },
        metadata: { correlationId: orderId, causationId: recorded.id, schemaVersion: 1 },
      },
    ]);
  });

  it('redelivered after the commit (crash before the ack): a duplicate, no second call, still one authorization', async () => {
    const { event, recorded } = paymentRequested();
    const counting = countingProvider(client);
    await handlePaymentRequested(depsWith(counting), event, recorded);

    const again = await handlePaymentRequested(depsWith(counting), event, recorded);

    expect(again).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(counting.calls.authorize).toBe(1);
    expect(await provider.ledger(authorizeKey(event.data.paymentAttemptId))).toHaveLength(1);
    expect(await outboxEventsOf(db, event.data.orderId)).toHaveLength(1);
    expect(await markersOf(db, recorded.id)).toBe(1);
  });

  it('crash after the attempt row, before the provider call: the redelivery authorizes once', async () => {
    const { event, recorded } = paymentRequested();
    const { orderId, paymentAttemptId } = event.data;

    await expect(
      handlePaymentRequested(depsWith(crashingBeforeAuthorize(client)), event, recorded),
    ).rejects.toThrow('simulated crash before the provider call');
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'pending' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([]);

    const retried = await handlePaymentRequested(depsWith(client), event, recorded);

    expect(retried).toMatchObject({ outcome: 'applied', result: 'authorized' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toHaveLength(1);
  });

  it('crash after the provider call, before the result committed: the redelivery reuses the key, the ledger keeps one authorization', async () => {
    const { event, recorded } = paymentRequested();
    const { orderId, paymentAttemptId } = event.data;

    await expect(
      handlePaymentRequested(depsWith(crashingAfterAuthorize(client)), event, recorded),
    ).rejects.toThrow('simulated crash after the provider answered');
    const [charged] = await provider.ledger(authorizeKey(paymentAttemptId));
    expect(charged).toBeDefined();
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'pending' });
    expect(await outboxEventsOf(db, orderId)).toEqual([]);
    expect(await markersOf(db, recorded.id)).toBe(0);

    const retried = await handlePaymentRequested(depsWith(client), event, recorded);

    expect(retried).toMatchObject({ outcome: 'applied', result: 'authorized' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([charged]);
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({
      status: 'authorized',
      authorizationId: charged!.authorizationId,
    });
    expect(await outboxEventsOf(db, orderId)).toHaveLength(1);
  });

  it('a failure after the provider authorized, before the result committed: the redelivery records the one authorization', async () => {
    const { event, recorded } = paymentRequested();
    const { orderId, paymentAttemptId } = event.data;
    const steps = failingAtStep('provider-authorized');

    await expect(
      handlePaymentRequested({ ...depsWith(client), steps }, event, recorded),
    ).rejects.toThrow('failed at step provider-authorized');
    expect(steps.seen).toEqual([
      {
        step: 'provider-authorized',
        facts: {
          consumer: 'payment-authorization-v1',
          eventType: 'OrderPaymentRequested',
          orderId,
          messageId: recorded.id,
        },
      },
    ]);
    const [charged] = await provider.ledger(authorizeKey(paymentAttemptId));
    expect(charged).toBeDefined();
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'pending' });
    expect(await outboxEventsOf(db, orderId)).toEqual([]);
    expect(await markersOf(db, recorded.id)).toBe(0);

    const retried = await handlePaymentRequested(depsWith(client), event, recorded);

    expect(retried).toMatchObject({ outcome: 'applied', result: 'authorized' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([charged]);
    expect(await outboxEventsOf(db, orderId)).toMatchObject([
      { type: 'PaymentAuthorized', data: { authorizationId: charged!.authorizationId } },
    ]);
  });

  it('tok_timeout: the client gives up (retryable), the retry gets the stored authorization, authorized once', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_timeout' });
    const { orderId, paymentAttemptId } = event.data;
    const impatient = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 300 });

    const failure = await rejectionOf(handlePaymentRequested(depsWith(impatient), event, recorded));

    expect(failure).toBeInstanceOf(ConsumerFailure);
    expect(failure).toMatchObject({ kind: 'retryable' });
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'pending' });
    const [charged] = await provider.ledger(authorizeKey(paymentAttemptId));
    expect(charged).toBeDefined();

    const retried = await handlePaymentRequested(depsWith(impatient), event, recorded);

    expect(retried).toMatchObject({ outcome: 'applied', result: 'authorized' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([charged]);
    expect(await outboxEventsOf(db, orderId)).toMatchObject([
      { type: 'PaymentAuthorized', data: { authorizationId: charged!.authorizationId } },
    ]);
  });

  it('tok_decline: the attempt is declined and PaymentDeclined enqueued; nothing is held on the card', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_decline' });
    const { orderId, paymentAttemptId } = event.data;

    const result = await handlePaymentRequested(depsWith(client), event, recorded);

    expect(result).toMatchObject({ outcome: 'applied', result: 'declined' });
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({
      status: 'declined',
      declineReason: 'card_declined',
    });
    expect(await outboxEventsOf(db, orderId)).toEqual([
      {
        type: 'PaymentDeclined',
        data: {
          orderId,
          paymentAttemptId,
          reason: 'card_declined',
          declinedAt: expect.any(String) as unknown,
        },
        metadata: { correlationId: orderId, causationId: recorded.id, schemaVersion: 1 },
      },
    ]);
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([]);
  });

  it('tok_error: a retryable failure; nothing recorded but the pending attempt, no marker', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_error' });
    const { orderId } = event.data;

    const failure = await rejectionOf(handlePaymentRequested(depsWith(client), event, recorded));

    expect(failure).toMatchObject({
      kind: 'retryable',
      reason: expect.stringContaining('503') as unknown,
    });
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'pending' });
    expect(await outboxEventsOf(db, orderId)).toEqual([]);
    expect(await markersOf(db, recorded.id)).toBe(0);
  });

  it('a token the processor does not know: a decline with its reason, a business outcome, never a parked message', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_aprove' });
    const { orderId, paymentAttemptId } = event.data;

    const result = await handlePaymentRequested(depsWith(client), event, recorded);

    expect(result).toMatchObject({ outcome: 'applied', result: 'declined' });
    expect(await outboxEventsOf(db, orderId)).toMatchObject([
      { type: 'PaymentDeclined', data: { paymentAttemptId, reason: 'unknown_token' } },
    ]);
    expect(await markersOf(db, recorded.id)).toBe(1);
  });

  it('tok_error on a delivery with retries left: a retryable failure; the key is not closed', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_error' });
    const counting = countingProvider(client);

    const failure = await rejectionOf(
      handlePaymentRequested(depsWith(counting), event, recorded, {
        retryCount: 2,
        maxRetryCount: 3,
      }),
    );

    expect(failure).toMatchObject({ kind: 'retryable' });
    expect(counting.calls).toMatchObject({ authorize: 1, close: 0 });
  });

  it('tok_error on the last allowed delivery: the key is closed at the processor, the attempt abandoned, PaymentUnavailable enqueued', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_error' });
    const { orderId, paymentAttemptId } = event.data;
    const counting = countingProvider(client);
    const last = { retryCount: 3, maxRetryCount: 3 };

    const result = await handlePaymentRequested(depsWith(counting), event, recorded, last);

    expect(result).toMatchObject({ outcome: 'applied', result: 'abandoned' });
    expect(counting.calls).toMatchObject({ authorize: 1, close: 1 });
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'abandoned' });
    expect(await outboxEventsOf(db, orderId)).toMatchObject([
      { type: 'PaymentUnavailable', data: { orderId, paymentAttemptId } },
    ]);
    // The key is fenced: an authorization under it can no longer be made.
    expect(
      await client.authorize({ paymentAttemptId, amountCents: 2_000, paymentToken: 'tok_approve' }),
    ).toEqual({ kind: 'closed' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([]);
  });

  it('tok_timeout on the last allowed delivery: closing the key finds the stored authorization, which is recorded, not abandoned', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_timeout' });
    const { orderId, paymentAttemptId } = event.data;
    const impatient = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 300 });

    const result = await handlePaymentRequested(depsWith(impatient), event, recorded, {
      retryCount: 5,
      maxRetryCount: 5,
    });

    expect(result).toMatchObject({ outcome: 'applied', result: 'authorized' });
    const [charged] = await provider.ledger(authorizeKey(paymentAttemptId));
    expect(await outboxEventsOf(db, orderId)).toMatchObject([
      { type: 'PaymentAuthorized', data: { authorizationId: charged!.authorizationId } },
    ]);
  });

  it('a processor down before the last delivery: a counted retry, as any transient failure', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_approve' });
    const down = unavailableProvider(client, 'connection refused');

    const failure = await rejectionOf(
      handlePaymentRequested(depsWith(down), event, recorded, { retryCount: 0, maxRetryCount: 1 }),
    );

    expect(failure).toMatchObject({ kind: 'retryable', untilSuccess: false });
  });

  it('a processor down even for the close on the last delivery: retried uncounted (never parked), and settled once the processor answers', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_approve' });
    const down = unavailableProvider(client, 'connection refused');
    const lastDelivery = { retryCount: 1, maxRetryCount: 1 };

    const failure = await rejectionOf(
      handlePaymentRequested(depsWith(down), event, recorded, lastDelivery),
    );

    expect(failure).toMatchObject({ kind: 'retryable', untilSuccess: true });
    expect(await findAttemptByOrder(db, { orderId: event.data.orderId })).toMatchObject({
      status: 'pending',
    });
    // The uncounted retry comes back still on the last delivery, and the processor is up again.
    const result = await handlePaymentRequested(depsWith(client), event, recorded, lastDelivery);
    expect(result).toMatchObject({ outcome: 'applied', result: 'authorized' });
  });

  it('a close answered with a refusal that cannot change on the last delivery: terminal, parked, not waited out', async () => {
    const { event, recorded } = paymentRequested({ paymentToken: 'tok_approve' });
    const down = unavailableProvider(client, 'connection refused');
    const refusingClose: PaymentProvider = {
      ...down,
      closeAuthorizationKey: () =>
        Promise.reject(terminalFailure('the processor answered the close with 422')),
    };

    const failure = await rejectionOf(
      handlePaymentRequested(depsWith(refusingClose), event, recorded, {
        retryCount: 1,
        maxRetryCount: 1,
      }),
    );

    expect(failure).toMatchObject({
      kind: 'terminal',
      reason: expect.stringContaining('422') as unknown,
    });
  });

  it.each([
    [
      'as the first event of its order stream (an order never placed)',
      { revision: 0n },
      'was never placed',
    ],
    ['in another order’s stream', { streamName: 'order-another' }, 'did not write it there'],
  ] as const)(
    'a request the order service cannot have written, %s: terminal with the reason; nothing recorded, the processor never asked',
    async (_where, origin, reason) => {
      const { event, recorded } = paymentRequested({ paymentToken: 'tok_approve' });
      const counting = countingProvider(client);

      const failure = await rejectionOf(
        handlePaymentRequested(depsWith(counting), event, { ...recorded, ...origin }),
      );

      expect(failure).toMatchObject({
        kind: 'terminal',
        reason: expect.stringContaining(reason) as unknown,
      });
      expect(counting.calls.authorize).toBe(0);
      expect(await findAttemptByOrder(db, { orderId: event.data.orderId })).toBeUndefined();
      expect(await outboxEventsOf(db, event.data.orderId)).toEqual([]);
    },
  );

  it('the same request under a new message id: the provider is not asked again and nothing is emitted twice', async () => {
    const first = paymentRequested();
    const counting = countingProvider(client);
    await handlePaymentRequested(depsWith(counting), first.event, first.recorded);
    const replayed = { ...first.recorded, id: randomUUID() };

    const result = await handlePaymentRequested(depsWith(counting), first.event, replayed);

    expect(result).toMatchObject({ outcome: 'applied', result: 'already_final' });
    expect(counting.calls.authorize).toBe(1);
    expect(await outboxEventsOf(db, first.event.data.orderId)).toHaveLength(1);
  });
});
