// Reads and writes the intent to send an email: step 1 of the handler locks
// it, decides and takes it over in its transaction; an attempt that failed
// lets go of it in a short one of its own.
import type { Kysely, Transaction } from 'kysely';
import type { SendIntent } from '../../domain/send-intent.decide.js';
import type { NotificationDatabase } from './database.js';
import type { NewNotificationIntent } from './notification-intent.table.js';
import type { NotificationKind } from '../../domain/notification.js';

type Trx = Transaction<NotificationDatabase>;

interface EmailKey {
  orderId: string;
  kind: NotificationKind;
}

/**
 * Records the intent, held by this attempt, unless one exists, then returns
 * the one that does, locked until the transaction ends: a second attempt for
 * the same email waits here, for milliseconds, not for an SMTP exchange.
 *
 * @example
 * const intent = await holdIntent(trx, { order_id, kind, email_message_id, held_by_message_id, held_by_attempt, held_since, created_at });
 */
export async function holdIntent(trx: Trx, intent: NewNotificationIntent): Promise<SendIntent> {
  await trx
    .insertInto('notification_intent')
    .values(intent)
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await trx
    .selectFrom('notification_intent')
    .select(['held_by_attempt', 'held_by_message_id', 'held_since'])
    .where('order_id', '=', intent.order_id)
    .where('kind', '=', intent.kind)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return {
    heldBy: row.held_by_attempt,
    heldByMessageId: row.held_by_message_id,
    heldSince: row.held_since,
  };
}

/** Moves the intent to this attempt: nobody holds it, or its holder outlived the lease. */
export async function takeOverIntent(
  trx: Trx,
  input: EmailKey & { attempt: string; messageId: string; now: Date },
): Promise<void> {
  await trx
    .updateTable('notification_intent')
    .set({
      held_by_attempt: input.attempt,
      held_by_message_id: input.messageId,
      held_since: input.now,
    })
    .where('order_id', '=', input.orderId)
    .where('kind', '=', input.kind)
    .execute();
}

/**
 * Lets go of the intent if this attempt still holds it, so that the next
 * attempt sends at once instead of waiting out the lease. An attempt taken
 * over meanwhile no longer holds it, and changes nothing.
 *
 * @example
 * await releaseIntent(db, { orderId, kind, attempt });
 */
export async function releaseIntent(
  db: Kysely<NotificationDatabase>,
  input: EmailKey & { attempt: string },
): Promise<void> {
  await db
    .updateTable('notification_intent')
    .set({ held_by_attempt: null })
    .where('order_id', '=', input.orderId)
    .where('kind', '=', input.kind)
    .where('held_by_attempt', '=', input.attempt)
    .execute();
}
