// The notification-email-v1 consumer: OrderConfirmed and OrderCancelled each
// become one email to the customer and one CustomerNotified event.
//
// An email cannot be taken back, and an SMTP exchange may take seconds, so no
// transaction stays open across it (ADR 0012). Three steps, as the payment
// service authorizes:
//   1. record the intent to send, with the derived Message-ID and the message
//      that holds it, in a short transaction of its own;
//   2. send the email under that Message-ID, outside any transaction;
//   3. processOnce: record the notification row and enqueue CustomerNotified,
//      with the message's marker.
// A second message id for the same email waits out the holder's lease instead
// of sending too (see send-intent.decide.ts). Email stays at-least-once: the
// crash windows below resend, always under the same Message-ID, and the mail
// sink flags the copy as `duplicate`. See docs/services/notification.md.
import {
  CONSUMERS,
  notWrittenByTheOrderService,
  notificationStream,
  type KnownEvent,
  type KnownEventType,
  type NotificationEvent,
} from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  retryableFailure,
  terminalFailure,
  type OutcomeListener,
  type ProcessResult,
} from '@effectively-once/idempotency';
import { enqueueEvents } from '@effectively-once/outbox';
import { noFaults, outgoingEvent, type FaultPoints } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { composeEmail } from '../../domain/email.compose.js';
import type { Email } from '../../domain/notification.js';
import { notificationFor } from '../../domain/notification.decide.js';
import { decideOnSendIntent, type SendDecision } from '../../domain/send-intent.decide.js';
import type { NotificationDatabase } from '../postgres/database.js';
import { holdIntent, takeOverIntent } from '../postgres/notification-intent.repository.js';
import { NOTIFICATION_BUSINESS_KEY } from '../postgres/notification.table.js';
import { insertNotification, isNotificationRecorded } from '../postgres/notification.repository.js';
import type { Mailer } from '../smtp/mailer.js';

export const notificationEmail = defineConsumer({
  name: CONSUMERS.notificationEmail,
  businessKeys: [NOTIFICATION_BUSINESS_KEY],
});

/** The events this consumer acts on: its subscription group receives only these. */
export const NOTIFICATION_EMAIL_EVENTS = [
  'OrderConfirmed',
  'OrderCancelled',
] as const satisfies readonly KnownEventType[];

/**
 * How long another message waits before taking over an email that is being
 * sent: well above one send's worst case (three SMTP timeouts of 5 s).
 */
export const DEFAULT_SEND_LEASE_MS = 60_000;

export interface NotificationEmailDeps {
  db: Kysely<NotificationDatabase>;
  mailer: Mailer;
  now: () => Date;
  onOutcome?: OutcomeListener;
  /** The failure lab's points in this consumer; `noFaults` when absent (outside lab mode). */
  faults?: FaultPoints;
  /** {@link DEFAULT_SEND_LEASE_MS} when absent. */
  sendLeaseMs?: number;
}

/** What an applied message did: the email it sent, as CustomerNotified says it. */
export type Notified = Extract<NotificationEvent, { type: 'CustomerNotified' }>['data'];

export type NotificationEmailResult = ProcessResult<Notified> | { outcome: 'ignored' };

/**
 * Handles one parsed event of an order stream. Events that ask for no email
 * are `ignored` without a transaction; the others take the three steps.
 *
 * @example
 * const result = await handleNotificationEmail({ db, mailer, now: () => new Date() }, event, recorded);
 */
export async function handleNotificationEmail(
  deps: NotificationEmailDeps,
  event: KnownEvent,
  recorded: RecordedEvent,
): Promise<NotificationEmailResult> {
  const request = notificationFor(event);
  if (request === null) return { outcome: 'ignored' };
  // The service keeps no state about orders, so where the event was found is
  // all it can check: an end the order service cannot have written (the
  // first event of its stream, or in another order's stream) would email a
  // customer about an order that never was.
  const forged = notWrittenByTheOrderService({
    type: recorded.type,
    orderId: request.orderId,
    streamName: recorded.streamName,
    revision: recorded.revision,
  });
  if (forged !== undefined) throw terminalFailure(forged);
  const email = composeEmail(request);
  const decision = await recordIntent(deps, email, recorded);
  // Crash window 1, after the intent committed and before the send: nothing
  // left, so the redelivery (the same message, which holds the intent) sends.
  switch (decision.kind) {
    case 'held_by_another':
      throw retryableFailure(
        `The email ${email.messageId} is being sent by message ${decision.heldBy}; retry once it is recorded.`,
      );
    case 'already_recorded':
      // No send: processOnce reports the duplicate, by marker or business key.
      break;
    case 'send':
      await deps.mailer.send(email);
      await emailSentNotYetRecorded(deps, email, recorded);
      break;
  }
  // Crash window 2, after SMTP accepted the email and before step 3 commits:
  // the email exists only at the receiver. The redelivery holds the intent and
  // sends it again, under the same Message-ID: a copy the receiver can tell
  // apart, never a different email and never a lost one.
  return recordSent(deps, { email, recorded });
}

/** Step 1: a short transaction; the row's lock is held for milliseconds, not for the send. */
async function recordIntent(
  deps: NotificationEmailDeps,
  email: Email,
  recorded: RecordedEvent,
): Promise<SendDecision> {
  const { orderId, kind } = email;
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const intent = await holdIntent(trx, {
      order_id: orderId,
      kind,
      email_message_id: email.messageId,
      held_by_message_id: recorded.id,
      held_since: now,
      created_at: now,
    });
    const decision = decideOnSendIntent({
      recorded: await isNotificationRecorded(trx, { orderId, kind }),
      intent,
      messageId: recorded.id,
      now,
      leaseMs: deps.sendLeaseMs ?? DEFAULT_SEND_LEASE_MS,
    });
    if (decision.kind === 'send' && decision.takeOver) {
      await takeOverIntent(trx, { orderId, kind, messageId: recorded.id, now });
    }
    return decision;
  });
}

/** The failure lab's point in crash window 2: it may hold, fail or crash the process here. */
async function emailSentNotYetRecorded(
  deps: NotificationEmailDeps,
  email: Email,
  recorded: RecordedEvent,
): Promise<void> {
  await (deps.faults ?? noFaults).hit('after-email-sent', {
    consumer: CONSUMERS.notificationEmail,
    eventType: recorded.type,
    orderId: email.orderId,
    messageId: recorded.id,
  });
}

/**
 * Step 3: the notification row, CustomerNotified and the marker commit
 * together or not at all. Crash window 3, after this commit and before the
 * ack: the redelivery finds the row in step 1 and sends nothing.
 */
function recordSent(
  deps: NotificationEmailDeps,
  input: { email: Email; recorded: RecordedEvent },
): Promise<ProcessResult<Notified>> {
  const { email, recorded } = input;
  const sentAt = deps.now();
  const notified: Notified = {
    orderId: email.orderId,
    kind: email.kind,
    emailMessageId: email.messageId,
    sentAt: sentAt.toISOString(),
  };
  return processOnce({
    db: deps.db,
    consumer: notificationEmail,
    message: { id: recorded.id, type: recorded.type },
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
    work: async (trx) => {
      await insertNotification(trx, {
        order_id: email.orderId,
        kind: email.kind,
        email_message_id: email.messageId,
        recipient: email.to,
        sent_at: sentAt,
      });
      await enqueueEvents(trx, [
        outgoingEvent({
          streamName: notificationStream(email.orderId),
          event: { type: 'CustomerNotified', data: notified },
          causedBy: recorded,
        }),
      ]);
      return notified;
    },
  });
}
