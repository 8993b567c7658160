// The crash windows of notification-email-v1, each one a test against a real
// PostgreSQL and a real SMTP server: wherever the handler stops between its
// three steps, the redelivery neither loses the email nor sends a different
// one. A repeat carries the same Message-ID, and the sink flags it. Two ways
// to stop: an attempt that fails in its process (a thrown error, the lab's
// `fail`) lets go of the intent, and the redelivery sends at once; a process
// that dies lets go of nothing, and the redelivery waits out the lease. The
// table is in docs/services/notification.md.
import { settleDelivery } from '@effectively-once/idempotency';
import { recordingDelivery } from '@effectively-once/idempotency/testing';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import {
  failingAtStep,
  failOnNetworkInsideTransactions,
} from '@effectively-once/service-kit/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { emailMessageId } from '../domain/email.compose.js';
import { closedPort, startMailSink, type MailSink } from '../testing/mail-sink.js';
import {
  intentsOf,
  markersOf,
  notificationsOf,
  outboxOf,
} from '../testing/notification-database.inspect.js';
import { orderConfirmed, underNewMessageId, type Delivered } from '../testing/order-events.js';
import type { NotificationDatabase } from '../adapters/postgres/database.js';
import { notificationDatabaseMigrations } from '../adapters/postgres/notification-migrations.js';
import { createSmtpMailer, type Mailer } from '../adapters/smtp/mailer.js';
import {
  DEFAULT_SEND_LEASE_MS,
  handleNotificationEmail,
  type NotificationEmailDeps,
} from './notification-email.handler.js';

const { db } = await createTestDatabase<NotificationDatabase>(notificationDatabaseMigrations);
failOnNetworkInsideTransactions();
const smtp = await startMailSink();
const mailer = createSmtpMailer({ host: smtp.host, port: smtp.port });
const startedAt = new Date('2026-12-01T10:00:01.000Z');
const now = () => startedAt;
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

const deliver = (delivered: Delivered, deps: Partial<NotificationEmailDeps> = {}) =>
  handleNotificationEmail({ db, mailer, now, ...deps }, delivered.event, delivered.recorded);

/** Every copy the sink received for the order: its Message-ID and whether it was a repeat. */
const copiesOf = (sink: MailSink, orderId: string) =>
  sink.receivedFor(orderId).map(({ messageId, duplicate }) => ({ messageId, duplicate }));

/** Nothing of step 3 was committed for this delivery. */
async function expectNothingRecorded(delivered: Delivered): Promise<void> {
  expect(await notificationsOf(db, delivered.orderId)).toEqual([]);
  expect(await outboxOf(db, delivered.orderId)).toEqual([]);
  expect(await markersOf(db, delivered.recorded.id)).toEqual([]);
}

/** Step 3 committed exactly once for the order. */
async function expectRecordedOnce(delivered: Delivered): Promise<void> {
  expect(await notificationsOf(db, delivered.orderId)).toHaveLength(1);
  expect(await outboxOf(db, delivered.orderId)).toMatchObject([
    {
      event_type: 'CustomerNotified',
      data: { emailMessageId: emailMessageId(delivered.orderId, 'order_confirmed') },
    },
  ]);
}

/** A mailer that fails `times` times at `when`, then sends as usual: the attempt fails in its process. */
function failing(when: 'before-send' | 'after-send', times = 1): Mailer {
  let left = times;
  return {
    async send(email) {
      if (when === 'before-send' && left-- > 0) throw new Error('failure injected before the send');
      await mailer.send(email);
      if (when === 'after-send' && left-- > 0) throw new Error('failure injected after the send');
    },
    close: () => undefined,
  };
}

/**
 * An attempt whose process dies at `when`: seen from the database, it never
 * comes back and lets go of nothing. `died` resolves once it got there;
 * `bury()` ends the frozen attempt with an error, for the test to see that
 * it changes nothing any more.
 */
function dyingAt(when: 'before-send' | 'after-send') {
  let reached!: () => void;
  const died = new Promise<void>((resolve) => (reached = resolve));
  let bury!: () => void;
  const buried = new Promise<void>((resolve) => (bury = resolve));
  const dying: Mailer = {
    async send(email) {
      if (when === 'after-send') await mailer.send(email);
      reached();
      await buried;
      throw new Error('the process died');
    },
    close: () => undefined,
  };
  return { mailer: dying, died, bury };
}

const pastTheLease = new Date(startedAt.getTime() + DEFAULT_SEND_LEASE_MS);

describe('notification-email-v1 crash windows', () => {
  it('no transaction is open while the email is sent', async () => {
    const confirmed = orderConfirmed();
    let openDuringSend: number | undefined;
    const observing: Mailer = {
      async send(email) {
        const { rows } = await sql<{ open: number }>`
          select count(*)::int as open from pg_stat_activity
          where datname = current_database() and state like 'idle in transaction%'`.execute(db);
        openDuringSend = rows[0]?.open;
        await mailer.send(email);
      },
      close: () => undefined,
    };

    await expect(deliver(confirmed, { mailer: observing })).resolves.toMatchObject({
      outcome: 'applied',
    });

    expect(openDuringSend).toBe(0);
  });

  it('SMTP down: a retryable failure that records nothing but the intent, then the redelivery sends once it is up', async () => {
    const port = await closedPort();
    const downMailer = createSmtpMailer({ host: '127.0.0.1', port, timeoutMs: 1_000 });
    const confirmed = orderConfirmed();
    const delivery = recordingDelivery(confirmed.recorded.id);
    const settle = () =>
      settleDelivery(delivery, () => deliver(confirmed, { mailer: downMailer }), {
        retryAfterMs: () => 0,
      });

    try {
      const failed = await settle();
      expect(failed).toMatchObject({ action: 'retry', failure: { kind: 'retryable' } });
      expect(delivery.reasons[0]).toMatch(/SMTP send of .* failed/);
      await expectNothingRecorded(confirmed);
      // The attempt failed in its process and let go: nobody holds the intent.
      expect(await intentsOf(db, confirmed.orderId)).toMatchObject([
        { held_by_message_id: confirmed.recorded.id, held_by_attempt: null },
      ]);

      const restarted = await startMailSink(port);
      try {
        const settled = await settle();
        expect(settled).toMatchObject({ action: 'ack', result: { outcome: 'applied' } });
        expect(delivery.settlements).toEqual(['retry', 'ack']);
        expect(copiesOf(restarted, confirmed.orderId)).toEqual([
          { messageId: emailMessageId(confirmed.orderId, 'order_confirmed'), duplicate: false },
        ]);
        await expectRecordedOnce(confirmed);
      } finally {
        await restarted.close();
      }
    } finally {
      downMailer.close();
    }
  });

  it('a failure after the intent and before the send: the redelivery sends at once, nothing repeated', async () => {
    const confirmed = orderConfirmed();
    const once = failing('before-send');

    await expect(deliver(confirmed, { mailer: once })).rejects.toThrow('before the send');
    expect(smtp.receivedFor(confirmed.orderId)).toEqual([]);
    await expectNothingRecorded(confirmed);

    await expect(deliver(confirmed, { mailer: once })).resolves.toMatchObject({
      outcome: 'applied',
    });
    expect(copiesOf(smtp, confirmed.orderId)).toEqual([
      { messageId: emailMessageId(confirmed.orderId, 'order_confirmed'), duplicate: false },
    ]);
    await expectRecordedOnce(confirmed);
  });

  it('a failure after the send and before the final commit: the redelivery resends at once under the same Message-ID and records it once', async () => {
    const confirmed = orderConfirmed();
    const once = failing('after-send');

    await expect(deliver(confirmed, { mailer: once })).rejects.toThrow('after the send');
    expect(smtp.receivedFor(confirmed.orderId)).toHaveLength(1);
    await expectNothingRecorded(confirmed);

    await expect(deliver(confirmed, { mailer: once })).resolves.toMatchObject({
      outcome: 'applied',
    });

    const messageId = emailMessageId(confirmed.orderId, 'order_confirmed');
    // At-least-once email: the receiver got it twice, and can tell by the Message-ID.
    expect(copiesOf(smtp, confirmed.orderId)).toEqual([
      { messageId, duplicate: false },
      { messageId, duplicate: true },
    ]);
    await expectRecordedOnce(confirmed);
    expect(await markersOf(db, confirmed.recorded.id)).toHaveLength(1);
  });

  it('a failure after SMTP accepted, before the final commit: the redelivery resends under the same Message-ID and records it once', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    const steps = failingAtStep('email-sent');

    await expect(deliver(confirmed, { steps })).rejects.toThrow('failed at step email-sent');
    expect(steps.seen).toEqual([
      {
        step: 'email-sent',
        facts: {
          consumer: 'notification-email-v1',
          eventType: 'OrderConfirmed',
          orderId,
          messageId: confirmed.recorded.id,
        },
      },
    ]);
    expect(smtp.receivedFor(orderId)).toHaveLength(1);
    await expectNothingRecorded(confirmed);

    await expect(deliver(confirmed)).resolves.toMatchObject({ outcome: 'applied' });

    const messageId = emailMessageId(orderId, 'order_confirmed');
    expect(copiesOf(smtp, orderId)).toEqual([
      { messageId, duplicate: false },
      { messageId, duplicate: true },
    ]);
    await expectRecordedOnce(confirmed);
  });

  it('a crash after the send and before the final commit: the redelivery waits out the lease, then resends under the same Message-ID and records it once', async () => {
    const confirmed = orderConfirmed();
    const { orderId } = confirmed;
    const dying = dyingAt('after-send');
    const crashed = deliver(confirmed, { mailer: dying.mailer });
    await dying.died;

    const withinTheLease = await deliver(confirmed).catch((error: unknown) => error);
    const pastIt = await deliver(confirmed, { now: () => pastTheLease });

    // Within the lease the dead holder cannot be told from one still sending.
    expect(withinTheLease).toMatchObject({ kind: 'retryable', untilSuccess: true });
    expect(pastIt).toMatchObject({ outcome: 'applied' });
    const messageId = emailMessageId(orderId, 'order_confirmed');
    expect(copiesOf(smtp, orderId)).toEqual([
      { messageId, duplicate: false },
      { messageId, duplicate: true },
    ]);
    await expectRecordedOnce(confirmed);
    // The frozen attempt, ended now, no longer holds the intent: it lets go of nothing.
    dying.bury();
    await expect(crashed).rejects.toThrow('the process died');
    expect(await intentsOf(db, orderId)).toMatchObject([
      { held_by_attempt: expect.any(String) as unknown, held_since: pastTheLease },
    ]);
  });

  it('a holder gone past the lease: another message id for the fact takes the intent over and sends, and the holder later finds it recorded', async () => {
    const confirmed = orderConfirmed();
    const rebuilt = underNewMessageId(confirmed);
    const dying = dyingAt('before-send');
    const crashed = deliver(confirmed, { mailer: dying.mailer });
    await dying.died;

    const takenOver = await deliver(rebuilt, { now: () => pastTheLease });
    const holderBack = await deliver(confirmed);

    expect(takenOver).toMatchObject({ outcome: 'applied' });
    expect(holderBack).toMatchObject({ outcome: 'duplicate', detectedBy: 'business-key' });
    expect(await intentsOf(db, confirmed.orderId)).toMatchObject([
      { held_by_message_id: rebuilt.recorded.id, held_since: pastTheLease },
    ]);
    expect(copiesOf(smtp, confirmed.orderId)).toEqual([
      { messageId: emailMessageId(confirmed.orderId, 'order_confirmed'), duplicate: false },
    ]);
    await expectRecordedOnce(confirmed);
    dying.bury();
    await expect(crashed).rejects.toThrow('the process died');
  });
});
