// The notification-email-v1 consumer: OrderConfirmed and OrderCancelled each
// become one email to the customer and one CustomerNotified event.
//
// An email cannot be taken back, and an SMTP exchange may take seconds, so no
// transaction stays open across it (ADR 0012). Three steps, as the payment
// service authorizes:
//   1. record the intent to send, with the derived Message-ID and the attempt
//      that holds it (this run of the handler), in a short transaction of its own;
//   2. send the email under that Message-ID, outside any transaction;
//   3. processOnce: record the notification row and enqueue CustomerNotified,
//      with the message's marker.
// Any other attempt, a second message id for the same email or the same
// message delivered twice at once, waits out the holder's lease instead of
// sending too (see send-intent.decide.ts). Email stays at-least-once: the
// crash windows below resend, always under the same Message-ID, and the mail
// sink flags the copy as `duplicate`. See docs/services/notification.md.
import { randomUUID } from 'node:crypto';
import {
  CONSUMERS,
  notWrittenByTheOrderService,
  notificationStream,
  type KnownEvent,
  isEventOf,
  type NotificationEvent,
} from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  retryUntilSuccessFailure,
  terminalFailure,
  type OutcomeListener,
  type ProcessResult,
} from '@effectively-once/idempotency';
import { enqueueEvents } from '@effectively-once/outbox';
import { outgoingEvent, unheardSteps, type StepReporter } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { composeEmail } from '../domain/email.compose.js';
import type { Email } from '../domain/notification.js';
import { NOTIFICATION_EMAIL_EVENTS, notificationFor } from '../domain/notification.decide.js';
import { decideOnSendIntent, type SendDecision } from '../domain/send-intent.decide.js';
import type { NotificationDatabase } from '../adapters/postgres/database.js';
import {
  holdIntent,
  releaseIntent,
  takeOverIntent,
} from '../adapters/postgres/notification-intent.repository.js';
import { NOTIFICATION_BUSINESS_KEY } from '../adapters/postgres/notification.table.js';
import {
  insertNotification,
  isNotificationRecorded,
} from '../adapters/postgres/notification.repository.js';
import type { Mailer } from '../adapters/smtp/mailer.js';

export const notificationEmail = defineConsumer({
  name: CONSUMERS.notificationEmail,
  businessKeys: [NOTIFICATION_BUSINESS_KEY],
});

/**
 * How long another attempt waits before taking over an email that is being
 * sent: well above one send's worst case (three SMTP timeouts of 5 s). It is
 * also how late the email goes out after a crash that left the intent held.
 */
export const DEFAULT_SEND_LEASE_MS = 60_000;

export interface NotificationEmailDeps {
  db: Kysely<NotificationDatabase>;
  mailer: Mailer;
  now: () => Date;
  onOutcome?: OutcomeListener;
  /** Where the handler reports the steps of its crash windows; nobody hears them when absent. */
  steps?: StepReporter;
  /** {@link DEFAULT_SEND_LEASE_MS} when absent. */
  sendLeaseMs?: number;
}

/** What an applied message did: the email it sent, as CustomerNotified says it. */
export type Notified = Extract<NotificationEvent, { type: 'CustomerNotified' }>['data'];

export type NotificationEmailResult = ProcessResult<Notified> | { outcome: 'ignored' };

/**
 * Handles one parsed event of an order stream. Events outside
 * NOTIFICATION_EMAIL_EVENTS ask for no email and are `ignored` without a
 * transaction; the others take the three steps.
 *
 * @example
 * const result = await handleNotificationEmail({ db, mailer, now: () => new Date() }, event, recorded);
 */
export async function handleNotificationEmail(
  deps: NotificationEmailDeps,
  event: KnownEvent,
  recorded: RecordedEvent,
): Promise<NotificationEmailResult> {
  // The subscription's filter keeps the rest away; a replay may not.
  if (!isEventOf(NOTIFICATION_EMAIL_EVENTS, event)) return { outcome: 'ignored' };
  const request = notificationFor(event);
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
  const attempt = randomUUID();
  const decision = await recordIntent(deps, { email, recorded, attempt });
  switch (decision.kind) {
    case 'held_by_another':
      // Bounded by the lease: by then the email is recorded or the intent is
      // taken over. So the wait never counts toward the retry limit, and an
      // email is never parked for it.
      throw retryUntilSuccessFailure(
        `The email ${email.messageId} is being sent by message ${decision.heldByMessageId} ` +
          `(another attempt, since ${decision.heldSince.toISOString()}); retry once it is recorded or its lease ran out.`,
      );
    case 'already_recorded':
      // No send: processOnce reports the duplicate, by marker or business key.
      return recordSent(deps, { email, recorded });
    case 'send':
      return sendThenRecord(deps, { email, recorded, attempt });
  }
}

/** Step 1: a short transaction; the row's lock is held for milliseconds, not for the send. */
async function recordIntent(
  deps: NotificationEmailDeps,
  input: { email: Email; recorded: RecordedEvent; attempt: string },
): Promise<SendDecision> {
  const { email, recorded, attempt } = input;
  const { orderId, kind } = email;
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const intent = await holdIntent(trx, {
      order_id: orderId,
      kind,
      email_message_id: email.messageId,
      held_by_message_id: recorded.id,
      held_by_attempt: attempt,
      held_since: now,
      created_at: now,
    });
    const decision = decideOnSendIntent({
      recorded: await isNotificationRecorded(trx, { orderId, kind }),
      intent,
      attempt,
      now,
      leaseMs: deps.sendLeaseMs ?? DEFAULT_SEND_LEASE_MS,
    });
    if (decision.kind === 'send' && decision.takeOver) {
      await takeOverIntent(trx, { orderId, kind, attempt, messageId: recorded.id, now });
    }
    return decision;
  });
}

/**
 * Steps 2 and 3, by the attempt that holds the intent. Crash window 1, after
 * the intent committed and before the send, and crash window 2, after SMTP
 * accepted the email and before step 3 commits (the email exists only at the
 * receiver): an attempt that fails in this process lets go of the intent,
 * and the redelivery sends at once; a process that dies lets go of nothing,
 * and the next attempt takes the intent over once the lease ran out. Either
 * way it sends under the same Message-ID: a copy the receiver can tell apart,
 * never a different email and never a lost one.
 */
async function sendThenRecord(
  deps: NotificationEmailDeps,
  input: { email: Email; recorded: RecordedEvent; attempt: string },
): Promise<ProcessResult<Notified>> {
  const { email, recorded, attempt } = input;
  try {
    await deps.mailer.send(email);
    await emailSentNotYetRecorded(deps, email, recorded);
    return await recordSent(deps, { email, recorded });
  } catch (error) {
    // The failure is what the delivery reports; a release that fails too
    // (the database is down) leaves the intent to the lease.
    await releaseIntent(deps.db, { orderId: email.orderId, kind: email.kind, attempt }).catch(
      () => undefined,
    );
    throw error;
  }
}

/** Crash window 2 begins: SMTP accepted the email, nothing of it is recorded yet. */
async function emailSentNotYetRecorded(
  deps: NotificationEmailDeps,
  email: Email,
  recorded: RecordedEvent,
): Promise<void> {
  await (deps.steps ?? unheardSteps).reached('email-sent', {
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
