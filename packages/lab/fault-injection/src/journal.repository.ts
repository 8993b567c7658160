// The lab journal in SQL: one appended row per step, read back in order.
import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { z } from 'zod';
import { JournalDetail, JournalEntry, type JournalKind } from './lab.schemas.js';
import type { LabTables } from './lab.tables.js';

/** One step about to be journaled; ids a step does not know are left out. */
export interface JournalStep {
  service: string;
  pid: number;
  kind: JournalKind;
  consumer?: string | undefined;
  messageId?: string | undefined;
  eventType?: string | undefined;
  orderId?: string | undefined;
  detail?: JournalDetail;
}

export async function appendJournal(db: Kysely<LabTables>, step: JournalStep): Promise<void> {
  await db
    .insertInto('lab_journal')
    .values({
      service: step.service,
      pid: step.pid,
      kind: step.kind,
      consumer: step.consumer ?? null,
      message_id: step.messageId ?? null,
      event_type: step.eventType ?? null,
      order_id: step.orderId ?? null,
      detail: JSON.stringify(step.detail ?? {}),
    })
    .execute();
}

export interface JournalFilter {
  /** Only the steps of this order (the events' correlation id). */
  orderId?: string | undefined;
  /** Only entries with a greater id: poll with the last id seen. */
  afterId?: number | undefined;
  /** At most this many, oldest first (default 200). */
  limit?: number | undefined;
}

const DEFAULT_LIMIT = 200;

// A bigint id arrives as a number through connect(), as text through a plain pool.
const JournalRow = z.object({
  id: z.coerce.number().int(),
  at: z.date(),
  service: z.string(),
  pid: z.number().int(),
  kind: z.string(),
  consumer: z.string().nullable(),
  message_id: z.string().nullable(),
  event_type: z.string().nullable(),
  order_id: z.string().nullable(),
  detail: JournalDetail,
});

/**
 * The journal in the order it was written, optionally one order's steps after
 * a given id. Any Kysely instance of the service's database will do, typed or
 * not, so readers outside the service (the scenario runner, the auditor) can
 * use it; every process of the service writes to the same journal.
 *
 * @example
 * const steps = await readJournal(db, { orderId, afterId: lastSeen });
 */
export async function readJournal(
  db: QueryExecutorProvider,
  filter: JournalFilter = {},
): Promise<JournalEntry[]> {
  const { orderId, afterId } = filter;
  const conditions = [
    ...(orderId === undefined ? [] : [sql`order_id = ${orderId}`]),
    ...(afterId === undefined ? [] : [sql`id > ${afterId}`]),
  ];
  const where = conditions.length === 0 ? sql`` : sql`WHERE ${sql.join(conditions, sql` AND `)}`;
  const { rows } = await sql`
    SELECT id, at, service, pid, kind, consumer, message_id, event_type, order_id, detail
      FROM lab_journal
      ${where}
     ORDER BY id
     LIMIT ${filter.limit ?? DEFAULT_LIMIT}`.execute(db);
  return rows.map((row) => {
    const parsed = JournalRow.parse(row);
    return JournalEntry.parse({
      id: parsed.id,
      at: parsed.at.toISOString(),
      service: parsed.service,
      pid: parsed.pid,
      kind: parsed.kind,
      consumer: parsed.consumer,
      messageId: parsed.message_id,
      eventType: parsed.event_type,
      orderId: parsed.order_id,
      detail: parsed.detail,
    });
  });
}

/**
 * The id of the newest journal entry, 0 for an empty journal: where a reader
 * that only wants what comes next starts.
 *
 * @example
 * const mark = await lastJournalId(db);
 * // ... later
 * const since = await readJournal(db, { afterId: mark });
 */
export async function lastJournalId(db: QueryExecutorProvider): Promise<number> {
  const { rows } = await sql<{ last: string | number | null }>`
    SELECT max(id) AS last FROM lab_journal`.execute(db);
  return Number(rows[0]?.last ?? 0);
}
