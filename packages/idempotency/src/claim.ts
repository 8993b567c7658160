import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { IdempotencyTables } from './processed-message.table.js';

type Markers = Kysely<IdempotencyTables> | Transaction<IdempotencyTables>;

/**
 * The claim, word for word. It is kept as text rather than built per call: it
 * never changes, it runs once per message, and a reader should see exactly
 * what PostgreSQL is asked.
 */
export const CLAIM_SQL = `INSERT INTO processed_message (consumer_name, message_id)
VALUES ($1, $2)
ON CONFLICT DO NOTHING
RETURNING message_id`;

/**
 * Claims one message for one consumer, inside the caller's transaction.
 *
 * One row back: this transaction owns the work. No row: a committed
 * transaction already did it. If a competing transaction holds the same key
 * and has not finished, PostgreSQL makes this statement wait for it: its commit
 * turns this into "no row", its rollback into "one row". The unique index
 * decides, never an earlier SELECT.
 */
export async function claimMessage(
  trx: Markers,
  consumerName: string,
  messageId: string,
): Promise<boolean> {
  const { rows } = await trx.executeQuery<{ message_id: string }>(
    CompiledQuery.raw(CLAIM_SQL, [consumerName, messageId]),
  );
  return rows.length === 1;
}

/**
 * Claims many messages in one statement. Returns the ids this transaction now
 * owns; the others are duplicates. Ids are sorted so that two batches with
 * overlapping ids take their locks in one order and cannot deadlock each other.
 */
export async function claimMessages(
  trx: Markers,
  consumerName: string,
  messageIds: readonly string[],
): Promise<Set<string>> {
  const sorted = [...new Set(messageIds)].sort();
  const { rows } = await sql<{ message_id: string }>`
    INSERT INTO processed_message (consumer_name, message_id)
    SELECT ${consumerName}, id FROM unnest(${sorted}::text[]) WITH ORDINALITY AS claim(id, n)
    ORDER BY n
    ON CONFLICT DO NOTHING
    RETURNING message_id`.execute(trx);
  return new Set(rows.map((row) => row.message_id));
}
