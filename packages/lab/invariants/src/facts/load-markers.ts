import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Marker, ServiceDatabase } from './facts.types.js';

const MarkerRow = z.object({ consumer_name: z.string(), message_id: z.string() });

/**
 * Every processed_message row of one service database.
 *
 * @example
 * const markers = await loadMarkers(db, 'inventory');
 */
export async function loadMarkers(
  db: Kysely<unknown>,
  database: ServiceDatabase,
): Promise<Marker[]> {
  const { rows } = await sql`SELECT consumer_name, message_id FROM processed_message`.execute(db);
  return z
    .array(MarkerRow)
    .parse(rows)
    .map((row) => ({ database, consumer: row.consumer_name, messageId: row.message_id }));
}
