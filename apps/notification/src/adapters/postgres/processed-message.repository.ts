import type { Kysely } from 'kysely';
import type { NotificationDatabase } from './database.js';

/** The consumer's markers kept for deduplication, for the eo_processed_message_rows gauge. */
export async function countMarkers(
  db: Kysely<NotificationDatabase>,
  consumer: string,
): Promise<number> {
  // count(*) is int8; the pool reads int8 as a number (packages/postgres, kysely.ts).
  const { rows } = await db
    .selectFrom('processed_message')
    .select((eb) => eb.fn.countAll<number>().as('rows'))
    .where('consumer_name', '=', consumer)
    .executeTakeFirstOrThrow();
  return rows;
}
