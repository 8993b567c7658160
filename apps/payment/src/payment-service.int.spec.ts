// The payment service wired as server.ts wires it, in one process: the
// embedded event store, the consumer, the outbox relay, the HTTP app and the
// real payment provider. Order events go in through the store; payment events
// come out on the payment streams.
import { randomUUID } from 'node:crypto';
import {
  CONSUMERS,
  orderStream,
  paymentAttemptId,
  paymentStream,
  STREAM_PREFIX,
} from '@effectively-once/contracts';
import { type EventStore, type JsonValue, type RecordedEvent } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { startOutboxRelay } from '@effectively-once/outbox';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { createServiceMetrics, startConsumer } from '@effectively-once/service-kit';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { PaymentDatabase } from './adapters/postgres/payment.database.js';
import { paymentDatabaseMigrations } from './adapters/postgres/payment.migrations.js';
import {
  authorizeKey,
  createPaymentProviderClient,
} from './adapters/provider/payment-provider.client.js';
import { handlePaymentAuthorization } from './payment-authorization/payment-authorization.handler.js';
import { buildApp } from './app.js';
import { startPaymentProvider } from './testing/payment-provider.harness.js';

const eventStoreDb = await createTestDatabase(eventStoreMigrations);
const store: EventStore = createPostgresEventStore({ url: eventStoreDb.url, pollIntervalMs: 50 });
const { db, url } = await createTestDatabase<PaymentDatabase>(paymentDatabaseMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const provider = await startPaymentProvider({ timeoutDelayMs: 30_000 });
const metrics = createServiceMetrics({ service: 'payment' });
const app = buildApp({ db, store, metrics, logger: false });
const consumer = startConsumer({
  store,
  consumer: CONSUMERS.paymentAuthorization,
  streamPrefixes: [STREAM_PREFIX.order],
  handle: (event, recorded) =>
    handlePaymentAuthorization(
      {
        db,
        provider: createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 5_000 }),
        now: () => new Date(),
        onOutcome: metrics.consumerOutcome,
      },
      event,
      recorded,
    ),
  metrics,
  log: app.log,
});
const relay = startOutboxRelay({ db, store, log: app.log, databaseUrl: url });
afterAll(async () => {
  await consumer.close();
  await relay.close();
  await app.close();
  await store.close();
});

async function appendToOrder(orderId: string, type: string, data: JsonValue): Promise<void> {
  await store.appendToStream(
    orderStream(orderId),
    [{ id: randomUUID(), type, data, metadata: { correlationId: orderId } }],
    { expectedRevision: 'any' },
  );
}

/**
 * Begins the order's stream as the order service does, with its OrderPlaced:
 * payment refuses a request found first in its stream (an order never placed).
 */
async function placeOrder(orderId: string): Promise<void> {
  await appendToOrder(orderId, 'OrderPlaced', {
    orderId,
    customerEmail: 'ada@example.com',
    items: [{ sku: 'SKU-MUG', quantity: 1 }],
    paymentToken: 'tok_approve',
    amountCents: 3_000,
    placedAt: new Date().toISOString(),
  });
}

/** Resolves with the first event of this type on the stream: the point the test waits for. */
async function firstEvent(streamName: string, type: string): Promise<RecordedEvent> {
  const subscription = store.subscribeToAll({
    filter: { kind: 'stream_prefix', prefixes: [streamName] },
  });
  try {
    for await (const event of subscription) {
      if (event.streamName === streamName && event.type === type) return event;
    }
    throw new Error(`The subscription ended before ${type} appeared on ${streamName}.`);
  } finally {
    await subscription.close();
  }
}

function paymentRequestedData(orderId: string, paymentToken: string) {
  return {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    paymentToken,
    amountCents: 3_000,
    requestedAt: new Date().toISOString(),
  };
}

describe('the payment service', () => {
  it('authorizes a requested payment once, publishes PaymentAuthorized and shows the attempt over HTTP', async () => {
    const orderId = randomUUID();
    const authorized = firstEvent(paymentStream(orderId), 'PaymentAuthorized');

    await placeOrder(orderId);
    await appendToOrder(
      orderId,
      'OrderPaymentRequested',
      paymentRequestedData(orderId, 'tok_approve'),
    );
    const event = await authorized;

    const [entry] = await provider.ledger(authorizeKey(paymentAttemptId(orderId)));
    expect(event.data).toMatchObject({ orderId, authorizationId: entry!.authorizationId });
    expect(event.metadata).toMatchObject({ correlationId: orderId });
    const reply = await app.inject({ method: 'GET', url: `/payments/${orderId}` });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      attemptId: paymentAttemptId(orderId),
      orderId,
      amountCents: 3_000,
      status: 'authorized',
      authorizationId: entry!.authorizationId,
      declineReason: null,
      createdAt: expect.any(String) as unknown,
      updatedAt: expect.any(String) as unknown,
    });
  });

  it('voids the authorization when the order is then cancelled, and publishes PaymentVoided', async () => {
    const orderId = randomUUID();
    const authorized = firstEvent(paymentStream(orderId), 'PaymentAuthorized');
    await placeOrder(orderId);
    await appendToOrder(
      orderId,
      'OrderPaymentRequested',
      paymentRequestedData(orderId, 'tok_approve'),
    );
    await authorized;
    const voided = firstEvent(paymentStream(orderId), 'PaymentVoided');

    await appendToOrder(orderId, 'OrderCancellationRequested', {
      orderId,
      reason: 'customer_request',
      requestedAt: new Date().toISOString(),
    });
    await voided;

    expect(await provider.ledger(authorizeKey(paymentAttemptId(orderId)))).toMatchObject([
      { status: 'voided' },
    ]);
    const reply = await app.inject({ method: 'GET', url: `/payments/${orderId}` });
    expect(reply.json()).toMatchObject({ status: 'voided' });
  });

  it('publishes PaymentDeclined for a declined card', async () => {
    const orderId = randomUUID();
    const declined = firstEvent(paymentStream(orderId), 'PaymentDeclined');

    await placeOrder(orderId);
    await appendToOrder(
      orderId,
      'OrderPaymentRequested',
      paymentRequestedData(orderId, 'tok_decline'),
    );

    expect((await declined).data).toMatchObject({ orderId, reason: 'card_declined' });
  });

  it('answers 404 PAYMENT_NOT_FOUND for an order without a payment, 400 for a malformed id', async () => {
    const missing = await app.inject({ method: 'GET', url: `/payments/${randomUUID()}` });
    const malformed = await app.inject({ method: 'GET', url: '/payments/not-a-uuid' });

    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, code: 'PAYMENT_NOT_FOUND' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('is ready when its database and the event store answer, and counts outcomes in /metrics', async () => {
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    const scraped = await app.inject({ method: 'GET', url: '/metrics' });

    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', eventStore: 'ok' } });
    expect(scraped.body).toMatch(
      /eo_consumer_messages_total\{[^}]*consumer="payment-authorization-v1"[^}]*outcome="applied"[^}]*\} [1-9]/,
    );
  });
});
