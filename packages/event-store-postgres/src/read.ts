// Reads. The global order is (transaction_id, global_position), and only events
// of transactions older than every running one are returned: those can no
// longer be joined by an event that sorts before them (ADR 0004).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  parseRecordedEvent,
  type GlobalPosition,
  type RecordedEvent,
} from '@effectively-once/event-store/port/envelope';
import { InvalidInputError } from '@effectively-once/event-store/port/errors';
import type {
  ReadAllOptions,
  ReadStreamOptions,
} from '@effectively-once/event-store/port/event-store';
import type { SubscriptionFilter } from '@effectively-once/event-store/port/subscription';
import { assertStreamName } from '@effectively-once/event-store/port/validate-append';
import type { EventStoreTables } from './event-store.tables.js';
import { loadXmin } from './idle-state.js';

export interface EventRow {
  global_position: number;
  transaction_id: string;
  event_id: string;
  stream_name: string;
  stream_revision: number;
  event_type: string;
  data: unknown;
  metadata: unknown;
  created_at: Date;
}

/** The columns of es_event as EventRow wants them, for `sql` queries. */
export const EVENT_COLUMNS = sql.raw(
  'e.global_position, e.transaction_id::text AS transaction_id, e.event_id::text AS event_id, e.stream_name, e.stream_revision, e.event_type, e.data, e.metadata, e.created_at',
);

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return parseRecordedEvent({
    id: row.event_id,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    streamName: row.stream_name,
    revision: BigInt(row.stream_revision),
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    createdAt: row.created_at,
  });
}

/** The filter as a condition on `e` (es_event). */
export function filterCondition(filter: SubscriptionFilter | undefined): RawBuilder<unknown> {
  if (filter === undefined) return sql`true`;
  switch (filter.kind) {
    case 'all':
      return sql`true`;
    case 'stream_prefix':
      return sql`EXISTS (SELECT 1 FROM unnest(${[...filter.prefixes]}::text[]) p WHERE starts_with(e.stream_name, p))`;
    case 'event_type':
      return sql`e.event_type = ANY(${[...filter.types]}::text[])`;
  }
}

function count(value: number | undefined, fallback: number, what: string): number {
  const result = value ?? fallback;
  if (!Number.isSafeInteger(result) || result < 1) {
    throw new InvalidInputError(
      'INVALID_EVENT',
      `${what} must be a positive whole number, got ${String(value)}.`,
    );
  }
  return result;
}

/**
 * One stream's events, forwards or backwards from an inclusive revision.
 *
 * @example
 * const history = await readStream(db, 'order-42');
 */
export async function readStream(
  db: Kysely<EventStoreTables>,
  streamName: string,
  options: ReadStreamOptions = {},
): Promise<RecordedEvent[]> {
  assertStreamName(streamName);
  const backwards = options.direction === 'backwards';
  const limit = count(options.maxCount, Number.MAX_SAFE_INTEGER, 'maxCount');
  const from =
    options.fromRevision === undefined ? undefined : BigInt(options.fromRevision).toString();
  const fromCondition =
    from === undefined
      ? sql`true`
      : backwards
        ? sql`e.stream_revision <= ${from}::bigint`
        : sql`e.stream_revision >= ${from}::bigint`;
  const { rows } = await sql<EventRow>`
    SELECT ${EVENT_COLUMNS} FROM es_event e
     WHERE e.stream_name = ${streamName} AND ${fromCondition}
     ORDER BY e.stream_revision ${backwards ? sql`DESC` : sql`ASC`}
     LIMIT ${limit}`.execute(db);
  return rows.map(toRecordedEvent);
}

/**
 * A page of a filtered follower (the catch-up subscription, and readAll): the matching
 * rows, and, when the page is short, the last position of the whole stable
 * log (`scannedTo`), read in the same statement and so the same snapshot.
 * The follower moves its cursor there: everything up to it was read, match
 * or not, and nothing new can appear below the xmin. Without this a cursor
 * that only moved on matching events would re-read every event after its
 * last match on each wake: a cost that grows with the log. `heldBack`, from
 * the same statement, says whether matching events wait at or above the
 * horizon (held back by an older transaction, or committed since), which a
 * second statement asked before.
 *
 * @example
 * const { rows, scannedTo, heldBack } = await readPage(db, { after, maxCount: 500, filter });
 */
export async function readPage(
  db: Kysely<EventStoreTables>,
  options: { after: GlobalPosition; maxCount: number; filter?: SubscriptionFilter | undefined },
): Promise<{ rows: EventRow[]; scannedTo: GlobalPosition | undefined; heldBack: boolean }> {
  const after = sql`(${options.after.commit.toString()}::xid8, ${options.after.prepare.toString()}::bigint)`;
  const { rows } = await sql<
    Partial<EventRow> & {
      end_position: number | null;
      end_transaction_id: string | null;
      held_back: boolean;
    }
  >`
    WITH horizon AS (SELECT es_horizon() AS xmin),
    page AS (
      SELECT e.transaction_id AS order_transaction_id, ${EVENT_COLUMNS} FROM es_event e, horizon h
       WHERE (e.transaction_id, e.global_position) > ${after}
         AND e.transaction_id < h.xmin
         AND ${filterCondition(options.filter)}
       ORDER BY e.transaction_id, e.global_position
       LIMIT ${options.maxCount}
    ), stable_end AS (
      SELECT e.global_position AS end_position, e.transaction_id::text AS end_transaction_id
        FROM es_event e, horizon h
       WHERE e.transaction_id < h.xmin
       ORDER BY e.transaction_id DESC, e.global_position DESC
       LIMIT 1
    ), held AS (
      -- Asked only after a short page, and as a scalar subquery in index order
      -- (EXISTS would drop the ORDER BY and scan the log after the cursor).
      SELECT CASE WHEN (SELECT count(*) FROM page) < ${options.maxCount} THEN (
        SELECT 1 FROM es_event e
         WHERE (e.transaction_id, e.global_position) > ${after}
           AND e.transaction_id >= (SELECT xmin FROM horizon)
           AND ${filterCondition(options.filter)}
         ORDER BY e.transaction_id, e.global_position
         LIMIT 1) IS NOT NULL ELSE false END AS held_back
    )
    -- One row per page row, or one with only the end and the held-back flag.
    SELECT s.end_position, s.end_transaction_id, hb.held_back, p.*
      FROM held hb LEFT JOIN stable_end s ON true LEFT JOIN page p ON true
     ORDER BY p.order_transaction_id, p.global_position`.execute(db);
  const page = rows.filter((row): row is EventRow & typeof row => row.event_id != null);
  const end = rows[0];
  return {
    rows: page,
    scannedTo:
      page.length < options.maxCount && end?.end_transaction_id != null && end.end_position != null
        ? { commit: BigInt(end.end_transaction_id), prepare: BigInt(end.end_position) }
        : undefined,
    heldBack: end?.held_back === true,
  };
}

/**
 * How long readAll waits for held-back events before it returns without them.
 * A hold usually lasts well under this: es_horizon counts as this database's
 * any transaction of its snapshot it does not find running elsewhere, and one
 * that ended in another database between the statement's snapshot and its
 * look at pg_stat_activity is such a one, for that statement only.
 */
export const READ_ALL_HELD_BACK_WAIT_MS = 1_000;
const HELD_BACK_RETRY_MS = 10;

/**
 * Events of every stream in global order, after a position (exclusive).
 * Only the stable log is returned (ADR 0004), but a short page with committed
 * events held back above the horizon is read again once the horizon moves,
 * for up to READ_ALL_HELD_BACK_WAIT_MS: a caller that has just appended
 * expects to read its events, as from EventStoreDB. After that wait the page
 * goes without them (an older transaction of this database is still open).
 *
 * @example
 * const page = await readAll(db, { after: lastSeen.position, maxCount: 500 });
 */
export async function readAll(
  db: Kysely<EventStoreTables>,
  options: ReadAllOptions = {},
): Promise<RecordedEvent[]> {
  const maxCount = count(options.maxCount, 1000, 'maxCount');
  const deadline = Date.now() + READ_ALL_HELD_BACK_WAIT_MS;
  let horizon: string | undefined;
  for (;;) {
    const page = await readPage(db, {
      after: options.after ?? { commit: 0n, prepare: 0n },
      maxCount,
      filter: options.filter,
    });
    if (page.rows.length === maxCount || !page.heldBack || Date.now() >= deadline) {
      return page.rows.map(toRecordedEvent);
    }
    // Read again once the horizon differs from the one seen before the last
    // read (the first time, at once): a long transaction then costs a tiny
    // query every 10 ms, not a page of events.
    const seen = horizon;
    do {
      await new Promise((resolve) => setTimeout(resolve, HELD_BACK_RETRY_MS));
      horizon = await loadXmin(db);
    } while (Date.now() < deadline && horizon === seen);
  }
}
