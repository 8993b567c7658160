// Reads and writes payment attempts as the domain's PaymentAttempt. Every
// function takes the pool or the caller's transaction.
import type { Kysely, Transaction } from 'kysely';
import type { PaymentAttempt, PendingAttempt } from '../../domain/payment-attempt.js';
import type { PaymentAttemptRow } from './payment-attempt.table.js';
import type { PaymentDatabase } from './payment.database.js';

type Db = Kysely<PaymentDatabase> | Transaction<PaymentDatabase>;

/**
 * Records a new pending attempt; a second insert for the same attempt or order
 * changes nothing (the caller reads the row back either way).
 *
 * @example
 * await insertPendingAttempt(trx, { attempt, now });
 */
export async function insertPendingAttempt(
  db: Db,
  input: { attempt: PendingAttempt; now: Date },
): Promise<void> {
  const { attempt, now } = input;
  await db
    .insertInto('payment_attempt')
    .values({
      attempt_id: attempt.attemptId,
      order_id: attempt.orderId,
      amount_cents: attempt.amountCents,
      payment_token: attempt.paymentToken,
      status: 'pending',
      authorization_id: null,
      decline_reason: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The order's attempt, if any. `forUpdate` locks the row until the transaction
 * ends, so two deliveries cannot both move it out of the same state.
 */
export async function findAttemptByOrder(
  db: Db,
  input: { orderId: string; forUpdate?: boolean },
): Promise<PaymentAttempt | undefined> {
  const query = db.selectFrom('payment_attempt').selectAll().where('order_id', '=', input.orderId);
  const row = await (input.forUpdate === true ? query.forUpdate() : query).executeTakeFirst();
  return row === undefined ? undefined : toPaymentAttempt(row);
}

/** The attempt's row as stored, timestamps included: what the HTTP API shows. */
export async function findAttemptRowByOrder(
  db: Db,
  orderId: string,
): Promise<PaymentAttemptRow | undefined> {
  return db
    .selectFrom('payment_attempt')
    .selectAll()
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

/**
 * Stores the attempt's new state. `from` guards the transition: a row that is
 * no longer in that state means the caller decided on stale data.
 *
 * @example
 * await saveTransition(trx, { attempt: authorized, from: 'pending', now });
 */
export async function saveTransition(
  db: Db,
  input: { attempt: PaymentAttempt; from: PaymentAttempt['status']; now: Date },
): Promise<void> {
  const { attempt, from, now } = input;
  const result = await db
    .updateTable('payment_attempt')
    .set({
      status: attempt.status,
      authorization_id: 'authorizationId' in attempt ? attempt.authorizationId : null,
      decline_reason: attempt.status === 'declined' ? attempt.declineReason : null,
      updated_at: now,
    })
    .where('attempt_id', '=', attempt.attemptId)
    .where('status', '=', from)
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) {
    throw new Error(
      `Payment attempt ${attempt.attemptId} was not ${from} any more when moving it to ${attempt.status}.`,
    );
  }
}

/** Rows come from a table whose CHECK constraints mirror the state machine; anything else is corruption. */
export function toPaymentAttempt(row: PaymentAttemptRow): PaymentAttempt {
  const facts = {
    attemptId: row.attempt_id,
    orderId: row.order_id,
    amountCents: row.amount_cents,
    paymentToken: row.payment_token,
  };
  const { status, authorization_id: authorizationId, decline_reason: declineReason } = row;
  if (status === 'pending' || status === 'abandoned') return { ...facts, status };
  if (
    (status === 'authorized' || status === 'voided' || status === 'captured') &&
    authorizationId !== null
  ) {
    return { ...facts, status, authorizationId };
  }
  if (status === 'declined' && declineReason !== null) return { ...facts, status, declineReason };
  throw new Error(
    `Payment attempt ${row.attempt_id} is stored in an impossible state (${status}).`,
  );
}
