import { markerView } from '@effectively-once/idempotency';
import type { Kysely } from 'kysely';
import type { PaymentDatabase } from './payment.database.js';

/**
 * The consumer's markers kept for deduplication: the gauge eo_processed_message_rows.
 *
 * @example
 * metrics.trackMarkerRows({ consumer, count: () => countMarkers(db, consumer) });
 */
export async function countMarkers(db: Kysely<PaymentDatabase>, consumer: string): Promise<number> {
  const { count } = await markerView(db)
    .selectFrom('processed_message')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('consumer_name', '=', consumer)
    .executeTakeFirstOrThrow();
  return Number(count);
}
