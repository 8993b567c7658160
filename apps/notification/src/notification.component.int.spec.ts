// The whole service in one process, as server.ts wires it: the consumer reads
// a real event store, sends through a real SMTP server, the relay publishes
// CustomerNotified, and the HTTP app reports what was sent.
import { randomUUID } from 'node:crypto';
import { notificationStream, orderStream, ProblemDetails } from '@effectively-once/contracts';
import {
  createPostgresEventStore,
  eventStoreMigrations,
  type RecordedEvent,
} from '@effectively-once/event-store';
import { combineMigrations } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { createServiceMetrics } from '@effectively-once/service-kit';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { NotificationList } from '@effectively-once/contracts';
import type { NotificationDatabase } from './adapters/postgres/database.js';
import { notificationDatabaseMigrations } from './adapters/postgres/notification-migrations.js';
import { createSmtpMailer } from './adapters/smtp/mailer.js';
import { buildApp } from './app.js';
import { emailMessageId } from './domain/email.compose.js';
import { startMailSink } from './testing/mail-sink.js';
import { startWorkers } from './workers.js';

const { url, db } = await createTestDatabase<NotificationDatabase>(
  combineMigrations(eventStoreMigrations, notificationDatabaseMigrations),
);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const store = createPostgresEventStore({ url, pollIntervalMs: 50 });
const smtp = await startMailSink();
const mailer = createSmtpMailer({ host: smtp.host, port: smtp.port });
const metrics = createServiceMetrics({ service: 'notification' });
const app = buildApp({ db, store, metrics, logger: false });
const wakeOnPublish: (() => void)[] = [];
const workers = startWorkers({
  db,
  databaseUrl: url,
  store,
  mailer,
  metrics,
  log: app.log,
  now: () => new Date('2026-12-01T10:00:01.000Z'),
  onPublished: () => {
    for (const wake of wakeOnPublish.splice(0)) wake();
  },
});
afterAll(async () => {
  await workers.close();
  await app.close();
  mailer.close();
  await smtp.close();
  await store.close();
});

/** Waits for the relay, not for a clock: re-reads the stream after each published batch. */
async function notificationEvents(orderId: string): Promise<RecordedEvent[]> {
  for (;;) {
    const published = new Promise<void>((resolve) => wakeOnPublish.push(resolve));
    const events = await store.readStream(notificationStream(orderId));
    if (events.length > 0) return events;
    await published;
  }
}

async function appendOrderEvents(orderId: string): Promise<{ confirmedId: string }> {
  const customerEmail = 'grace@example.com';
  const confirmedId = randomUUID();
  await store.appendToStream(
    orderStream(orderId),
    [
      {
        id: randomUUID(),
        type: 'OrderPlaced',
        data: {
          orderId,
          customerEmail,
          items: [{ sku: 'SKU-MUG', quantity: 2 }],
          paymentToken: 'tok_approve',
          amountCents: 2_000,
          placedAt: '2026-12-01T10:00:00.000Z',
        },
        metadata: { correlationId: orderId },
      },
      {
        id: confirmedId,
        type: 'OrderConfirmed',
        data: {
          orderId,
          customerEmail,
          authorizationId: 'auth-1',
          confirmedAt: '2026-12-01T10:00:00.500Z',
        },
        metadata: {
          correlationId: orderId,
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  return { confirmedId };
}

describe('notification service', () => {
  it('an order confirmed in the event store becomes one email, one CustomerNotified and one listed notification', async () => {
    const orderId = randomUUID();
    const messageId = emailMessageId(orderId, 'order_confirmed');
    const { confirmedId } = await appendOrderEvents(orderId);

    const [notified, ...more] = await notificationEvents(orderId);

    expect(more).toEqual([]);
    expect(notified).toMatchObject({
      type: 'CustomerNotified',
      data: { orderId, kind: 'order_confirmed', emailMessageId: messageId },
      metadata: {
        correlationId: orderId,
        causationId: confirmedId,
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
    });
    expect(smtp.receivedFor(orderId).map((mail) => mail.messageId)).toEqual([messageId]);

    const response = await app.inject({ url: `/notifications?orderId=${orderId}` });
    expect(response.statusCode).toBe(200);
    expect(NotificationList.parse(response.json())).toEqual({
      notifications: [
        {
          orderId,
          kind: 'order_confirmed',
          emailMessageId: messageId,
          recipient: 'grace@example.com',
          sentAt: '2026-12-01T10:00:01.000Z',
        },
      ],
    });
    const scrape = await app.inject({ url: '/metrics' });
    expect(scrape.body).toMatch(
      /eo_consumer_messages_total\{[^}]*event_type="OrderConfirmed",outcome="applied"\} 1/,
    );
    // The group receives only the types the consumer acts on: OrderPlaced never arrives.
    expect(scrape.body).not.toMatch(/eo_consumer_messages_total\{[^}]*event_type="OrderPlaced"/);
  });

  it('lists nothing for an order without notifications', async () => {
    const response = await app.inject({ url: `/notifications?orderId=${randomUUID()}` });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ notifications: [] });
  });

  it('refuses an order id that is not a uuid with a 400 problem', async () => {
    const response = await app.inject({ url: '/notifications?orderId=42' });

    expect(response.statusCode).toBe(400);
    expect(ProblemDetails.parse(response.json())).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('is ready when its database and the event store answer', async () => {
    const response = await app.inject({ url: '/ready' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', eventStore: 'ok' },
    });
  });
});
