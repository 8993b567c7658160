import { sql, type Transaction } from 'kysely';
import type { PaymentDatabase } from './payment.database.js';

/**
 * Serializes, per order, the two transactions that look at both tables: the
 * payment request's (read the cancellation, then start an attempt) and the
 * cancellation's (record it, then read the attempt). Without it, under READ
 * COMMITTED each could miss the other's uncommitted row: the request would
 * authorize and the cancellation would find nothing to void. Held until the
 * transaction ends.
 *
 * @example
 * await db.transaction().execute(async (trx) => { await lockOrder(trx, orderId); ... });
 */
export async function lockOrder(trx: Transaction<PaymentDatabase>, orderId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`payment-order:${orderId}`}, 0))`.execute(
    trx,
  );
}
