// The consumer against a real PostgreSQL and a real SMTP server: one email per
// (order, kind), however the event arrives, and the one case where a second
// copy is sent (a crash after the send), under the same Message-ID.
import { createServer, type Server } from 'node:net';
import { notificationStream } from '@effectively-once/contracts';
import { settleDelivery } from '@effectively-once/idempotency';
import { recordingDelivery } from '@effectively-once/idempotency/testing';
import { createTestDatabase, waitForLockWaiter } from '@effectively-once/postgres/testing';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { emailMessageId } from '../../domain/email.compose.js';
import {
  orderCancelled,
  orderConfirmed,
  orderPlaced,
  underNewMessageId,
  type Delivered,
} from '../../testing/order-events.js';
import { failingAt } from '@effectively-once/service-kit/testing';
import { startMailSink } from '../../testing/mail-sink.js';
import type { NotificationDatabase } from '../postgres/database.js';
import { notificationDatabaseMigrations } from '../postgres/notification-migrations.js';
import { createSmtpMailer, type Mailer } from '../smtp/mailer.js';
import {
  handleNotificationEmail,
  notificationEmail,
  type NotificationEmailResult,
} from './notification-email.handler.js';

const { db, connect } = await createTestDatabase<NotificationDatabase>(
  notificationDatabaseMigrations,
);
const smtp = await startMailSink();
const mailer = createSmtpMailer({ host: smtp.host, port: smtp.port });
const now = () => new Date('2026-12-01T10:00:01.000Z');
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

const deliver = (delivered: Delivered, using: Mailer = mailer) =>
  handleNotificationEmail({ db, mailer: using, now }, delivered.event, delivered.recorded);

const notificationsOf = (orderId: string) =>
  db.selectFrom('notification').selectAll().where('order_id', '=', orderId).execute();
const outboxOf = (orderId: string) =>
  db
    .selectFrom('outbox')
    .selectAll()
    .where('stream_name', '=', notificationStream(orderId))
    .execute();
const markersOf = (messageId: string) =>
  db
    .selectFrom('processed_message')
    .selectAll()
    .where('consumer_name', '=', notificationEmail.name)
    .where('message_id', '=', messageId)
    .execute();

/** A port that accepts nothing: bound, then released. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('notification-email-v1', () => {
  it('sends the confirmation email once, under the Message-ID derived from (order, kind), and enqueues CustomerNotified', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    const messageId = emailMessageId(orderId, 'order_confirmed');

    const result = await deliver(confirmed);

    expect(result).toMatchObject({
      outcome: 'applied',
      result: { kind: 'order_confirmed', emailMessageId: messageId },
    });
    expect(smtp.receivedFor(orderId)).toEqual([
      {
        messageId,
        from: 'orders@effectively-once.local',
        to: ['ada@example.com'],
        subject: `Your order ${orderId} is confirmed`,
        text: expect.stringContaining('is confirmed') as unknown,
        orderId,
        receivedAt: expect.any(String) as unknown,
        duplicate: false,
      },
    ]);
    expect(await notificationsOf(orderId)).toEqual([
      {
        order_id: orderId,
        kind: 'order_confirmed',
        email_message_id: messageId,
        recipient: 'ada@example.com',
        sent_at: now(),
      },
    ]);
    const [notified, ...more] = await outboxOf(orderId);
    expect(more).toEqual([]);
    expect(notified).toMatchObject({
      event_type: 'CustomerNotified',
      data: {
        orderId,
        kind: 'order_confirmed',
        emailMessageId: messageId,
        sentAt: now().toISOString(),
      },
      metadata: { correlationId: orderId, causationId: confirmed.recorded.id, schemaVersion: 1 },
    });
  });

  it('sends the cancellation email with the reason in words', async () => {
    const cancelled = orderCancelled('out_of_stock');
    const { orderId } = cancelled;

    await expect(deliver(cancelled)).resolves.toMatchObject({ outcome: 'applied' });

    const [mail, ...more] = smtp.receivedFor(orderId);
    expect(more).toEqual([]);
    expect(mail?.messageId).toBe(emailMessageId(orderId, 'order_cancelled'));
    expect(mail?.text).toContain('because some of the items were out of stock');
  });

  it('a redelivery of the same message is a duplicate by its marker: no second email', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    await deliver(confirmed);

    const again = await deliver(confirmed);

    expect(again).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(smtp.receivedFor(orderId)).toHaveLength(1);
    expect(await notificationsOf(orderId)).toHaveLength(1);
    expect(await outboxOf(orderId)).toHaveLength(1);
  });

  it('the same fact under a new message id is a duplicate by the business key: no second email', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    await deliver(confirmed);
    const rebuilt = underNewMessageId(confirmed);

    const again = await deliver(rebuilt);

    expect(again).toMatchObject({
      outcome: 'duplicate',
      detectedBy: 'business-key',
      constraint: 'notification_pkey',
    });
    expect(smtp.receivedFor(orderId)).toHaveLength(1);
    expect(await outboxOf(orderId)).toHaveLength(1);
    expect(await markersOf(rebuilt.recorded.id)).toEqual([]);
  });

  it("a second message id for the same fact waits on the first one's row, then is a duplicate that sends nothing", async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    const rebuilt = underNewMessageId(confirmed);
    const rivalName = `rival-${orderId}`;
    const rivalDb = connect({ maxConnections: 1, applicationName: rivalName });
    let rival: Promise<NotificationEmailResult> | undefined;
    // The first delivery has inserted its (uncommitted) row when it sends: it
    // starts the rival then, and sends only once PostgreSQL shows the rival
    // waiting on that row. No timing is assumed.
    const startRivalThenSend: Mailer = {
      async send(email) {
        rival = handleNotificationEmail(
          { db: rivalDb, mailer, now },
          rebuilt.event,
          rebuilt.recorded,
        );
        await waitForLockWaiter(db as Kysely<unknown>, rivalName);
        await mailer.send(email);
      },
      close: () => undefined,
    };

    const first = await deliver(confirmed, startRivalThenSend);
    const second = await rival;

    expect(first).toMatchObject({ outcome: 'applied' });
    expect(second).toMatchObject({
      outcome: 'duplicate',
      detectedBy: 'business-key',
      constraint: 'notification_pkey',
    });
    expect(smtp.receivedFor(orderId)).toHaveLength(1);
    expect(await notificationsOf(orderId)).toHaveLength(1);
    expect(await outboxOf(orderId)).toHaveLength(1);
  });

  it('an event that asks for no email is ignored without a transaction', async () => {
    const placed = orderPlaced();
    const { orderId } = placed;

    await expect(deliver(placed)).resolves.toEqual({ outcome: 'ignored' });

    expect(smtp.receivedFor(orderId)).toEqual([]);
    expect(await markersOf(placed.recorded.id)).toEqual([]);
  });

  it('SMTP down: a retryable failure that commits nothing, then the redelivery sends once it is up', async () => {
    const port = await closedPort();
    const downMailer = createSmtpMailer({ host: '127.0.0.1', port, timeoutMs: 1_000 });
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    const delivery = recordingDelivery(confirmed.recorded.id);
    const settle = () =>
      settleDelivery(delivery, () => deliver(confirmed, downMailer), {
        retryAfterMs: () => 0,
      });

    try {
      const failed = await settle();
      expect(failed).toMatchObject({ action: 'retry', failure: { kind: 'retryable' } });
      expect(delivery.reasons[0]).toMatch(/SMTP send of .* failed/);
      expect(await notificationsOf(orderId)).toEqual([]);
      expect(await outboxOf(orderId)).toEqual([]);
      expect(await markersOf(confirmed.recorded.id)).toEqual([]);

      const restarted = await startMailSink(port);
      try {
        const settled = await settle();
        expect(settled).toMatchObject({ action: 'ack', result: { outcome: 'applied' } });
        expect(delivery.settlements).toEqual(['retry', 'ack']);
        expect(restarted.receivedFor(orderId)).toHaveLength(1);
        expect(await notificationsOf(orderId)).toHaveLength(1);
      } finally {
        await restarted.close();
      }
    } finally {
      downMailer.close();
    }
  });

  it('a crash after the send and before the commit: the redelivery resends under the same Message-ID, and one row is kept', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    let crashes = 1;
    // The real send, then the process "dies" before COMMIT: the transaction rolls back.
    const crashingOnce: Mailer = {
      async send(email) {
        await mailer.send(email);
        if (crashes-- > 0) throw new Error('crash injected after the send');
      },
      close: () => undefined,
    };

    await expect(deliver(confirmed, crashingOnce)).rejects.toMatchObject({ kind: 'retryable' });
    expect(smtp.receivedFor(orderId)).toHaveLength(1);
    expect(await notificationsOf(orderId)).toEqual([]);
    expect(await outboxOf(orderId)).toEqual([]);
    expect(await markersOf(confirmed.recorded.id)).toEqual([]);

    await expect(deliver(confirmed, crashingOnce)).resolves.toMatchObject({ outcome: 'applied' });

    const messageId = emailMessageId(orderId, 'order_confirmed');
    // At-least-once email: the receiver got it twice, and can tell by the Message-ID.
    expect(
      smtp.receivedFor(orderId).map(({ messageId: id, duplicate }) => ({ id, duplicate })),
    ).toEqual([
      { id: messageId, duplicate: false },
      { id: messageId, duplicate: true },
    ]);
    expect(await notificationsOf(orderId)).toHaveLength(1);
    expect(await outboxOf(orderId)).toHaveLength(1);
    expect(await markersOf(confirmed.recorded.id)).toHaveLength(1);
  });

  it('a lab fault after SMTP accepted, before the commit: the redelivery resends under the same Message-ID and records it once', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    const faults = failingAt('after-email-sent');

    await expect(
      handleNotificationEmail({ db, mailer, now, faults }, confirmed.event, confirmed.recorded),
    ).rejects.toMatchObject({ kind: 'retryable' });
    expect(faults.reached).toEqual([
      {
        point: 'after-email-sent',
        facts: {
          consumer: 'notification-email-v1',
          eventType: 'OrderConfirmed',
          orderId,
          messageId: confirmed.recorded.id,
        },
      },
    ]);
    expect(smtp.receivedFor(orderId)).toHaveLength(1);
    expect(await notificationsOf(orderId)).toEqual([]);
    expect(await outboxOf(orderId)).toEqual([]);
    expect(await markersOf(confirmed.recorded.id)).toEqual([]);

    await expect(deliver(confirmed)).resolves.toMatchObject({ outcome: 'applied' });

    const messageId = emailMessageId(orderId, 'order_confirmed');
    expect(
      smtp.receivedFor(orderId).map(({ messageId: id, duplicate }) => ({ id, duplicate })),
    ).toEqual([
      { id: messageId, duplicate: false },
      { id: messageId, duplicate: true },
    ]);
    expect(await notificationsOf(orderId)).toHaveLength(1);
    expect(await outboxOf(orderId)).toMatchObject([
      { event_type: 'CustomerNotified', data: { emailMessageId: messageId } },
    ]);
  });
});
