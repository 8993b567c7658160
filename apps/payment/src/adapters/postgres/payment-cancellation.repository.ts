import type { Kysely, Transaction } from 'kysely';
import type { PaymentDatabase } from './payment.database.js';

type Db = Kysely<PaymentDatabase> | Transaction<PaymentDatabase>;

/**
 * Remembers that the order is being cancelled; idempotent.
 *
 * @example
 * await recordCancellation(trx, { orderId, now });
 */
export async function recordCancellation(
  db: Db,
  input: { orderId: string; now: Date },
): Promise<void> {
  await db
    .insertInto('payment_cancellation')
    .values({ order_id: input.orderId, created_at: input.now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function isCancelled(db: Db, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom('payment_cancellation')
    .select('order_id')
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return row !== undefined;
}
