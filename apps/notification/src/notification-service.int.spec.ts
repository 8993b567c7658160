// The whole service in one process, started from the declaration server.ts
// runs (startService): the consumer reads a real event store, sends through a
// real SMTP server, the relay publishes CustomerNotified, and the HTTP app
// reports what was sent.
import { randomUUID } from 'node:crypto';
import { notificationStream, orderStream, ProblemDetails } from '@effectively-once/contracts';
import { type RecordedEvent } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { startService } from '@effectively-once/service-kit';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { NotificationList } from '@effectively-once/contracts';
import type { NotificationDatabase } from './adapters/postgres/database.js';
import { createSmtpMailer } from './adapters/smtp/mailer.js';
import { loadNotificationConfig } from './config.js';
import { emailMessageId } from './domain/email.compose.js';
import { notificationService } from './notification-service.js';
import { startMailSink } from './testing/mail-sink.js';

const events = await createTestDatabase(eventStoreMigrations);
// Empty: the service migrates its own database, as it does in production.
const own = await createTestDatabase<NotificationDatabase>({});
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const store = createPostgresEventStore({ url: events.url, pollIntervalMs: 50 });
const smtp = await startMailSink();
const mailer = createSmtpMailer({ host: smtp.host, port: smtp.port });
const config = loadNotificationConfig({
  DATABASE_URL: own.url,
  EVENT_STORE_DATABASE_URL: events.url,
  PORT: '0',
  LOG_LEVEL: 'silent',
});
const service = await startService<NotificationDatabase>(
  notificationService({ config, mailer, now: () => new Date('2026-12-01T10:00:01.000Z') }),
);
const { app } = service;
afterAll(async () => {
  // The consumer, the relay, HTTP, the mailer, the store and the pool, in the service's order.
  await service.close();
  await smtp.close();
  await store.close();
});

/** Waits for the relay to have published the order's notification. */
async function notificationEvents(orderId: string): Promise<RecordedEvent[]> {
  return vi.waitFor(
    async () => {
      const published = await store.readStream(notificationStream(orderId));
      if (published.length === 0) throw new Error(`Nothing published for ${orderId} yet.`);
      return published;
    },
    { timeout: 10_000, interval: 50 },
  );
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
