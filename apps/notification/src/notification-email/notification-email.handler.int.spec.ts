// The consumer against a real PostgreSQL and a real SMTP server: one email per
// (order, kind), however the event arrives. What a crash or an SMTP failure
// between the steps does is in notification-email.crash-windows.int.spec.ts.
import { ConsumerFailure } from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { emailMessageId } from '../domain/email.compose.js';
import { startMailSink } from '../testing/mail-sink.js';
import {
  intentsOf,
  markersOf,
  notificationsOf,
  outboxOf,
} from '../testing/notification-database.inspect.js';
import {
  orderCancelled,
  orderConfirmed,
  orderPlaced,
  underNewMessageId,
  type Delivered,
} from '../testing/order-events.js';
import type { NotificationDatabase } from '../adapters/postgres/database.js';
import { notificationDatabaseMigrations } from '../adapters/postgres/notification-migrations.js';
import { createSmtpMailer, type Mailer } from '../adapters/smtp/mailer.js';
import { handleNotificationEmail } from './notification-email.handler.js';

const { db } = await createTestDatabase<NotificationDatabase>(notificationDatabaseMigrations);
// The SMTP send inside processOnce's transaction would fail every test here.
failOnNetworkInsideTransactions();
const smtp = await startMailSink();
const mailer = createSmtpMailer({ host: smtp.host, port: smtp.port });
const now = () => new Date('2026-12-01T10:00:01.000Z');
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

const deliver = (delivered: Delivered, using: Mailer = mailer) =>
  handleNotificationEmail({ db, mailer: using, now }, delivered.event, delivered.recorded);

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
    expect(await notificationsOf(db, orderId)).toEqual([
      {
        order_id: orderId,
        kind: 'order_confirmed',
        email_message_id: messageId,
        recipient: 'ada@example.com',
        sent_at: now(),
      },
    ]);
    expect(await intentsOf(db, orderId)).toMatchObject([
      {
        kind: 'order_confirmed',
        email_message_id: messageId,
        held_by_message_id: confirmed.recorded.id,
      },
    ]);
    const [notified, ...more] = await outboxOf(db, orderId);
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
    expect(await notificationsOf(db, orderId)).toHaveLength(1);
    expect(await outboxOf(db, orderId)).toHaveLength(1);
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
    expect(await outboxOf(db, orderId)).toHaveLength(1);
    expect(await markersOf(db, rebuilt.recorded.id)).toEqual([]);
  });

  it('a second message id for the same fact while the first is sending is retried, then a duplicate that sends nothing', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    const rebuilt = underNewMessageId(confirmed);
    let rivalMeanwhile: unknown;
    // The first delivery holds the intent and has no transaction open when it
    // sends: the rival's step 1 answers at once instead of waiting on a lock.
    const rivalThenSend: Mailer = {
      async send(email) {
        rivalMeanwhile = await deliver(rebuilt).catch((error: unknown) => error);
        await mailer.send(email);
      },
      close: () => undefined,
    };

    const first = await deliver(confirmed, rivalThenSend);
    const rivalAgain = await deliver(rebuilt);

    expect(first).toMatchObject({ outcome: 'applied' });
    expect(rivalMeanwhile).toBeInstanceOf(ConsumerFailure);
    expect(rivalMeanwhile).toMatchObject({
      kind: 'retryable',
      untilSuccess: true,
      reason: expect.stringContaining(
        `is being sent by message ${confirmed.recorded.id}`,
      ) as unknown,
    });
    expect(rivalAgain).toMatchObject({
      outcome: 'duplicate',
      detectedBy: 'business-key',
      constraint: 'notification_pkey',
    });
    expect(smtp.receivedFor(orderId)).toHaveLength(1);
    expect(await notificationsOf(db, orderId)).toHaveLength(1);
    expect(await outboxOf(db, orderId)).toHaveLength(1);
  });

  it('two deliveries of the same message in flight at once: the second is retried while the first sends, and the customer gets one email', async () => {
    // A lease that ran out while the first still sends, or a consumer whose
    // LISTEN session died, hands the same message to a second attempt.
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    let secondMeanwhile: unknown;
    const secondThenSend: Mailer = {
      async send(email) {
        secondMeanwhile = await deliver(confirmed).catch((error: unknown) => error);
        await mailer.send(email);
      },
      close: () => undefined,
    };

    const first = await deliver(confirmed, secondThenSend);
    const secondAgain = await deliver(confirmed);

    expect(
      smtp.receivedFor(orderId).map(({ messageId, duplicate }) => ({ messageId, duplicate })),
    ).toEqual([{ messageId: emailMessageId(orderId, 'order_confirmed'), duplicate: false }]);
    expect(first).toMatchObject({ outcome: 'applied' });
    expect(secondMeanwhile).toBeInstanceOf(ConsumerFailure);
    expect(secondMeanwhile).toMatchObject({
      kind: 'retryable',
      reason: expect.stringContaining('another attempt') as unknown,
    });
    expect(secondAgain).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(await notificationsOf(db, orderId)).toHaveLength(1);
    expect(await outboxOf(db, orderId)).toHaveLength(1);
  });

  it.each([
    [
      'an OrderConfirmed as the first event of its stream (an order never placed)',
      () => orderConfirmed(),
      { revision: 0n },
      'was never placed',
    ],
    [
      'an OrderCancelled as the first event of its stream (an order never placed)',
      () => orderCancelled('customer_request'),
      { revision: 0n },
      'was never placed',
    ],
    [
      'an OrderConfirmed in another order’s stream',
      () => orderConfirmed(),
      { streamName: 'order-another' },
      'did not write it there',
    ],
  ] as const)(
    '%s: terminal with the reason, no email, nothing recorded',
    async (_what, make, origin, reason) => {
      const delivered = make();
      const { orderId } = delivered;

      const failure = await deliver({
        ...delivered,
        recorded: { ...delivered.recorded, ...origin },
      }).then(
        () => expect.fail('expected the handler to fail'),
        (error: unknown) => error,
      );

      expect(failure).toBeInstanceOf(ConsumerFailure);
      expect(failure).toMatchObject({
        kind: 'terminal',
        reason: expect.stringContaining(reason) as unknown,
      });
      expect(smtp.receivedFor(orderId)).toEqual([]);
      expect(await intentsOf(db, orderId)).toEqual([]);
      expect(await notificationsOf(db, orderId)).toEqual([]);
    },
  );

  it('an event that asks for no email is ignored without a transaction', async () => {
    const placed = orderPlaced();
    const { orderId } = placed;

    await expect(deliver(placed)).resolves.toEqual({ outcome: 'ignored' });

    expect(smtp.receivedFor(orderId)).toEqual([]);
    expect(await markersOf(db, placed.recorded.id)).toEqual([]);
  });
});
