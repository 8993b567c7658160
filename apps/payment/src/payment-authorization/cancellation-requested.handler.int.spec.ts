// OrderCancellationRequested against a real payment database and the real
// provider: an authorization is voided once, and a cancellation that comes
// first stops the payment from ever being taken.
import { createTestDatabase, waitForLockWaiter } from '@effectively-once/postgres/testing';
import type { Kysely } from 'kysely';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { describe, expect, it } from 'vitest';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';
import { paymentDatabaseMigrations } from '../adapters/postgres/payment.migrations.js';
import { lockOrder } from '../adapters/postgres/order-lock.js';
import {
  findAttemptByOrder,
  insertPendingAttempt,
} from '../adapters/postgres/payment-attempt.repository.js';
import {
  authorizeKey,
  createPaymentProviderClient,
  type PaymentProvider,
} from '../adapters/provider/payment-provider.client.js';
import { startAttempt } from '../domain/payment-attempt.js';
import {
  cancellationRequested,
  orderCancelled,
  paymentRequested,
} from '../testing/order-events.fixtures.js';
import { markersOf, outboxEventsOf } from '../testing/payment-database.inspect.js';
import { startPaymentProvider } from '../testing/payment-provider.harness.js';
import {
  countingProvider,
  crashingAfterVoid,
  unavailableProvider,
} from '../testing/provider-doubles.js';
import { handleCancellationRequested } from './cancellation-requested.handler.js';
import type { PaymentHandlerDeps } from './handler-deps.js';
import { handlePaymentAuthorization } from './payment-authorization.handler.js';
import { handlePaymentRequested } from './payment-requested.handler.js';

const testDb = await createTestDatabase<PaymentDatabase>(paymentDatabaseMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const { db } = testDb;
const provider = await startPaymentProvider({ timeoutDelayMs: 30_000 });
const client = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 5_000 });

const depsWith = (paymentProvider: PaymentProvider): PaymentHandlerDeps => ({
  db,
  provider: paymentProvider,
  now: () => new Date(),
});

describe('OrderCancellationRequested', () => {
  it('after the authorization: voided once at the provider, the attempt voided, PaymentVoided enqueued', async () => {
    const requested = paymentRequested();
    const { orderId, paymentAttemptId } = requested.event.data;
    const counting = countingProvider(client);
    await handlePaymentRequested(depsWith(counting), requested.event, requested.recorded);
    const cancel = cancellationRequested(orderId);

    const result = await handleCancellationRequested(
      depsWith(counting),
      cancel.event,
      cancel.recorded,
    );
    const again = await handleCancellationRequested(
      depsWith(counting),
      cancel.event,
      cancel.recorded,
    );

    expect(result).toMatchObject({ outcome: 'applied', result: 'voided' });
    expect(again).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(counting.calls.void).toBe(1);
    const [entry] = await provider.ledger(authorizeKey(paymentAttemptId));
    expect(entry).toMatchObject({ status: 'voided', voidedAt: expect.any(String) as unknown });
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'voided' });
    const events = await outboxEventsOf(db, orderId);
    expect(events.map((event) => event.type)).toEqual(['PaymentAuthorized', 'PaymentVoided']);
    expect(events[1]).toEqual({
      type: 'PaymentVoided',
      data: {
        orderId,
        paymentAttemptId,
        authorizationId: entry!.authorizationId,
        voidedAt: expect.any(String) as unknown,
      },
      metadata: { correlationId: orderId, causationId: cancel.recorded.id, schemaVersion: 1 },
    });
  });

  it('crash after the void, before the commit: the redelivery voids with the same key and records it once', async () => {
    const requested = paymentRequested();
    const { orderId, paymentAttemptId } = requested.event.data;
    await handlePaymentRequested(depsWith(client), requested.event, requested.recorded);
    const cancel = cancellationRequested(orderId);

    await expect(
      handleCancellationRequested(
        depsWith(crashingAfterVoid(client)),
        cancel.event,
        cancel.recorded,
      ),
    ).rejects.toThrow('simulated crash after the provider voided');
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'authorized' });
    const result = await handleCancellationRequested(
      depsWith(client),
      cancel.event,
      cancel.recorded,
    );

    expect(result).toMatchObject({ outcome: 'applied', result: 'voided' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toMatchObject([
      { status: 'voided' },
    ]);
    expect((await outboxEventsOf(db, orderId)).map((event) => event.type)).toEqual([
      'PaymentAuthorized',
      'PaymentVoided',
    ]);
  });

  it('before the payment request: the cancellation is recorded, and the later request calls nothing', async () => {
    const requested = paymentRequested();
    const { orderId, paymentAttemptId } = requested.event.data;
    const counting = countingProvider(client);
    const cancel = cancellationRequested(orderId);

    const cancelled = await handleCancellationRequested(
      depsWith(counting),
      cancel.event,
      cancel.recorded,
    );
    const request = await handlePaymentRequested(
      depsWith(counting),
      requested.event,
      requested.recorded,
    );

    expect(cancelled).toMatchObject({ outcome: 'applied', result: 'nothing_to_void:no_attempt' });
    expect(request).toMatchObject({ outcome: 'applied', result: 'skip_cancelled' });
    expect(counting.calls).toEqual({ authorize: 0, void: 0, capture: 0, close: 0 });
    expect(await findAttemptByOrder(db, { orderId })).toBeUndefined();
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([]);
    expect(await outboxEventsOf(db, orderId)).toMatchObject([
      {
        type: 'PaymentNothingToVoid',
        data: { orderId, paymentAttemptId: null, reason: 'no_attempt' },
      },
    ]);
  });

  it('while the attempt is pending and the processor never saw it: the key is closed there, nothing is held, and the request finds the attempt final', async () => {
    const requested = paymentRequested();
    const { orderId } = requested.event.data;
    const deps = depsWith(client);
    const cancel = cancellationRequested(orderId);
    // The request's first delivery recorded the attempt and stopped (crash window 1).
    await insertPendingAttempt(db, {
      attempt: startAttempt({
        attemptId: requested.event.data.paymentAttemptId,
        orderId,
        amountCents: requested.event.data.amountCents,
        paymentToken: requested.event.data.paymentToken,
      }),
      now: new Date(),
    });

    const settled = await handleCancellationRequested(deps, cancel.event, cancel.recorded);
    const request = await handlePaymentRequested(deps, requested.event, requested.recorded);

    expect(settled).toMatchObject({ outcome: 'applied', result: 'nothing_to_void:key_closed' });
    expect(request).toMatchObject({ outcome: 'applied', result: 'already_final' });
    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'abandoned' });
    expect(await provider.ledger(authorizeKey(requested.event.data.paymentAttemptId))).toEqual([]);
    expect((await outboxEventsOf(db, orderId)).map((event) => event.type)).toEqual([
      'PaymentNothingToVoid',
    ]);
  });

  it('while the attempt is pending and the processor authorized it (the answer was lost): closing the key returns the authorization, which is then voided', async () => {
    const requested = paymentRequested({ paymentToken: 'tok_timeout' });
    const { orderId, paymentAttemptId } = requested.event.data;
    const impatient = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 300 });
    const cancel = cancellationRequested(orderId);
    // The request's delivery timed out: the processor authorized, nothing here knows it.
    await expect(
      handlePaymentRequested(depsWith(impatient), requested.event, requested.recorded),
    ).rejects.toMatchObject({ kind: 'retryable' });

    const voided = await handleCancellationRequested(
      depsWith(client),
      cancel.event,
      cancel.recorded,
    );

    expect(voided).toMatchObject({ outcome: 'applied', result: 'voided' });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toMatchObject([
      { status: 'voided' },
    ]);
    expect((await outboxEventsOf(db, orderId)).map((event) => event.type)).toEqual([
      'PaymentAuthorized',
      'PaymentVoided',
    ]);
  });

  it('the processor down: a retryable failure, the cancellation row kept, nothing recorded as settled', async () => {
    const requested = paymentRequested();
    const { orderId } = requested.event.data;
    await handlePaymentRequested(depsWith(client), requested.event, requested.recorded);
    const cancel = cancellationRequested(orderId);

    await expect(
      handleCancellationRequested(
        depsWith(unavailableProvider(client, 'connection refused')),
        cancel.event,
        cancel.recorded,
      ),
    ).rejects.toMatchObject({ kind: 'retryable' });

    expect(await findAttemptByOrder(db, { orderId })).toMatchObject({ status: 'authorized' });
    expect(await markersOf(db, cancel.recorded.id)).toBe(0);
    const retried = await handleCancellationRequested(
      depsWith(client),
      cancel.event,
      cancel.recorded,
    );
    expect(retried).toMatchObject({ outcome: 'applied', result: 'voided' });
  });

  it('after a decline: nothing to release, no call to the provider', async () => {
    const requested = paymentRequested({ paymentToken: 'tok_decline' });
    const counting = countingProvider(client);
    await handlePaymentRequested(depsWith(counting), requested.event, requested.recorded);
    const cancel = cancellationRequested(requested.event.data.orderId);

    const result = await handleCancellationRequested(
      depsWith(counting),
      cancel.event,
      cancel.recorded,
    );

    expect(result).toMatchObject({ outcome: 'applied', result: 'nothing_to_void:declined' });
    expect(counting.calls.void).toBe(0);
    expect((await outboxEventsOf(db, requested.event.data.orderId)).map((e) => e.type)).toEqual([
      'PaymentDeclined',
      'PaymentNothingToVoid',
    ]);
  });

  it('waits for a concurrent payment request holding the order: it sees the attempt the request committed', async () => {
    const requested = paymentRequested();
    const { orderId, paymentAttemptId, amountCents, paymentToken } = requested.event.data;
    const cancel = cancellationRequested(orderId);
    const racer = testDb.connect({ applicationName: 'payment-cancellation-racer' });
    let releaseRequest: () => void = () => undefined;
    const requestHolds = new Promise<void>((resolve) => (releaseRequest = resolve));
    // A payment request's step 1, held open after its insert.
    const request = db.transaction().execute(async (trx) => {
      await lockOrder(trx, orderId);
      await insertPendingAttempt(trx, {
        attempt: startAttempt({ attemptId: paymentAttemptId, orderId, amountCents, paymentToken }),
        now: new Date(),
      });
      await requestHolds;
    });

    const cancellation = handleCancellationRequested(
      { db: racer, provider: client, now: () => new Date() },
      cancel.event,
      cancel.recorded,
    ).catch((error: unknown) => error);
    await waitForLockWaiter(db as Kysely<unknown>, 'payment-cancellation-racer');
    releaseRequest();
    await request;

    // Without the lock it would have read "no attempt" and said nothing is held,
    // while the request went on to authorize; with it, it sees the pending
    // attempt and closes its key, so the request can never authorize.
    expect(await cancellation).toMatchObject({
      outcome: 'applied',
      result: 'nothing_to_void:key_closed',
    });
    expect(await client.authorize({ paymentAttemptId, amountCents, paymentToken })).toEqual({
      kind: 'closed',
    });
    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toEqual([]);
  });
});

describe('the consumer payment-authorization-v1', () => {
  it('acknowledges the order events it does not act on as ignored, writing nothing', async () => {
    const { event, recorded } = orderCancelled(paymentRequested().event.data.orderId);

    const result = await handlePaymentAuthorization(depsWith(client), event, recorded);

    expect(result).toEqual({ outcome: 'ignored' });
    expect(await markersOf(db, recorded.id)).toBe(0);
  });
});
