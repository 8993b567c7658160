// The relay's queries on the outbox table, as plain functions of a connection
// (the pool, or the transaction that holds the relay lock).
import { sql, type Kysely } from 'kysely';
import { outboxView, type OutboxRow, type OutboxTables } from './outbox.table.js';

export type UnsentRow = Pick<
  OutboxRow,
  'position' | 'event_id' | 'stream_name' | 'event_type' | 'data' | 'metadata'
>;

/** The oldest unsent rows, in position order, up to `upTo` when given. */
export async function readUnsent(
  db: Kysely<OutboxTables>,
  input: { limit: number; upTo: number | undefined },
): Promise<UnsentRow[]> {
  let query = db
    .selectFrom('outbox')
    .select(['position', 'event_id', 'stream_name', 'event_type', 'data', 'metadata'])
    .where('sent_at', 'is', null)
    .orderBy('position')
    .limit(input.limit);
  if (input.upTo !== undefined) query = query.where('position', '<=', input.upTo);
  return query.execute();
}

export async function markSent(
  db: Kysely<OutboxTables>,
  positions: readonly number[],
): Promise<void> {
  if (positions.length === 0) return;
  await db
    .updateTable('outbox')
    .set({ sent_at: sql<Date>`now()` })
    // One array parameter rather than `in (...)`: a text that does not grow with
    // the batch is prepared once per session (ADR 0029), not once per length.
    .where('position', '=', sql<number>`any(${[...positions]}::bigint[])`)
    .where('sent_at', 'is', null)
    .execute();
}

/** Unsent rows, all of them or those up to position `upTo`. */
export async function countPending(
  db: Kysely<OutboxTables>,
  input: { upTo?: number } = {},
): Promise<number> {
  let query = db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('sent_at', 'is', null);
  if (input.upTo !== undefined) query = query.where('position', '<=', input.upTo);
  const { count } = await query.executeTakeFirstOrThrow();
  return Number(count);
}

/** The newest unsent position now: what `flush()` promises to publish. */
export async function lastPendingPosition(db: Kysely<OutboxTables>): Promise<number | undefined> {
  const row = await db
    .selectFrom('outbox')
    .select('position')
    .where('sent_at', 'is', null)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.position;
}

export interface PruneSentOptions {
  /** Sent rows older than this are deleted. */
  olderThanMs: number;
  /** Rows per DELETE, so a large prune never holds long locks. */
  batchSize?: number;
}

/**
 * Deletes rows sent more than `olderThanMs` ago (by the database's clock).
 * Unsent rows are never deleted. A sent row is only history: the event lives
 * in the store, so this loses nothing but the trail for debugging.
 *
 * @returns the number of rows deleted
 * @example
 * await pruneSentEvents(db, { olderThanMs: 7 * 24 * 3_600_000 });
 */
export async function pruneSentEvents<Database extends OutboxTables>(
  db: Kysely<Database>,
  options: PruneSentOptions,
): Promise<number> {
  const batchSize = options.batchSize ?? 10_000;
  const cutoff = sql<Date>`now() - make_interval(secs => ${options.olderThanMs / 1000}::double precision)`;
  let deleted = 0;
  for (;;) {
    const result = await outboxView(db)
      .deleteFrom('outbox')
      .where('position', 'in', (qb) =>
        qb.selectFrom('outbox').select('position').where('sent_at', '<', cutoff).limit(batchSize),
      )
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < batchSize) return deleted;
  }
}
