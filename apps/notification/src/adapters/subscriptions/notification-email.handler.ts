// The notification-email-v1 consumer: OrderConfirmed and OrderCancelled each
// become one email to the customer and one CustomerNotified event.
//
// An email cannot be taken back, so it is the one effect here that no
// database transaction can cover. The order of the steps makes the bound as
// tight as it gets:
//   1. insert the notification row (business key (order_id, kind)) FIRST: a
//      second message for the same fact waits on this row's lock and, once it
//      committed, meets the key and is a duplicate without sending anything;
//   2. send the email, with a Message-ID derived from (order, kind);
//   3. enqueue CustomerNotified in the outbox, then commit with the marker.
// CRASH WINDOW: if the process dies (or the commit fails) after step 2 and
// before the commit, nothing of 1-3 is kept, the event is redelivered and the
// email is sent again, under the same Message-ID. Email is at-least-once, never
// exactly-once; a repeat is recognisable by its Message-ID (the mail sink flags
// it as `duplicate`). That is the honest bound: see docs/services/notification.md.
import {
  CONSUMERS,
  notificationStream,
  type KnownEvent,
  type KnownEventType,
  type NotificationEvent,
} from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  type OutcomeListener,
  type ProcessResult,
} from '@effectively-once/idempotency';
import { enqueueEvents } from '@effectively-once/outbox';
import { noFaults, outgoingEvent, type FaultPoints } from '@effectively-once/service-kit';
import type { Kysely, Transaction } from 'kysely';
import { composeEmail } from '../../domain/email.compose.js';
import type { Email } from '../../domain/notification.js';
import { notificationFor } from '../../domain/notification.decide.js';
import type { NotificationDatabase } from '../postgres/database.js';
import { NOTIFICATION_BUSINESS_KEY } from '../postgres/notification.table.js';
import { insertNotification } from '../postgres/notification.repository.js';
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

export interface NotificationEmailDeps {
  db: Kysely<NotificationDatabase>;
  mailer: Mailer;
  now: () => Date;
  onOutcome?: OutcomeListener;
  /** The failure lab's points in this consumer; `noFaults` when absent (outside lab mode). */
  faults?: FaultPoints;
}

/** What an applied message did: the email it sent, as CustomerNotified says it. */
export type Notified = Extract<NotificationEvent, { type: 'CustomerNotified' }>['data'];

export type NotificationEmailResult = ProcessResult<Notified> | { outcome: 'ignored' };

/**
 * Handles one parsed event of an order stream. Events that ask for no email
 * are `ignored` without a transaction; the others run under processOnce.
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
  const email = composeEmail(request);
  return processOnce({
    db: deps.db,
    consumer: notificationEmail,
    message: { id: recorded.id, type: recorded.type },
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
    work: (trx) =>
      sendOnce(trx, {
        email,
        mailer: deps.mailer,
        faults: deps.faults ?? noFaults,
        sentAt: deps.now(),
        recorded,
      }),
  });
}

async function sendOnce(
  trx: Transaction<NotificationDatabase>,
  input: {
    email: Email;
    mailer: Mailer;
    faults: FaultPoints;
    sentAt: Date;
    recorded: RecordedEvent;
  },
): Promise<Notified> {
  const { email, mailer, sentAt, recorded } = input;
  await insertNotification(trx, {
    order_id: email.orderId,
    kind: email.kind,
    email_message_id: email.messageId,
    recipient: email.to,
    sent_at: sentAt,
  });
  await mailer.send(email);
  // From here to COMMIT is the crash window described at the top of this file;
  // the failure lab can stop the handler at its start (after-email-sent).
  await input.faults.hit('after-email-sent', {
    consumer: CONSUMERS.notificationEmail,
    eventType: recorded.type,
    orderId: email.orderId,
    messageId: recorded.id,
  });
  const notified: Notified = {
    orderId: email.orderId,
    kind: email.kind,
    emailMessageId: email.messageId,
    sentAt: sentAt.toISOString(),
  };
  await enqueueEvents(trx, [
    outgoingEvent({
      streamName: notificationStream(email.orderId),
      event: { type: 'CustomerNotified', data: notified },
      causedBy: recorded,
    }),
  ]);
  return notified;
}
