// One batch of the relay: the oldest unsent rows, appended in one call for
// all their streams, each row marked sent only after the store accepted its event.
import {
  EventStoreError,
  type EventStore,
  type NewEvent,
  type SettledAppend,
} from '@effectively-once/event-store';
import type { Kysely } from 'kysely';
import { markSent, readUnsent, type UnsentRow } from './outbox.repository.js';
import type { OutboxTables } from './outbox.table.js';

/** A row whose event the store has just accepted, as `afterAppend` sees it: ids, never the payload. */
export interface AppendedOutboxRow {
  eventId: string;
  streamName: string;
  type: string;
  /** The event's correlation id: the order, for every event of an order. */
  orderId: string | undefined;
}

/** Runs after the store accepted a row's event and before the row is marked sent (the failure lab's after-relay-append). */
export type AfterAppend = (row: AppendedOutboxRow) => Promise<void>;

export interface StreamFailure {
  streamName: string;
  error: unknown;
}

export interface BatchResult {
  /** Rows read: fewer than the batch size means the backlog is drained. */
  read: number;
  /** Rows appended and marked sent. */
  published: number;
  failures: StreamFailure[];
}

function toNewEvent(row: UnsentRow): NewEvent {
  return { id: row.event_id, type: row.event_type, data: row.data, metadata: row.metadata };
}

function toAppendedRow(row: UnsentRow): AppendedOutboxRow {
  const correlationId: unknown = row.metadata.correlationId;
  return {
    eventId: row.event_id,
    streamName: row.stream_name,
    type: row.event_type,
    orderId: typeof correlationId === 'string' ? correlationId : undefined,
  };
}

/** Calls the hook for each appended row, in order; nothing at all without one. */
async function appended(afterAppend: AfterAppend | undefined, rows: readonly UnsentRow[]) {
  if (afterAppend === undefined) return;
  for (const row of rows) await afterAppend(toAppendedRow(row));
}

/** Rows by stream, each stream's rows in position order, streams in order of first appearance. */
function byStream(rows: readonly UnsentRow[]): Map<string, UnsentRow[]> {
  const streams = new Map<string, UnsentRow[]>();
  for (const row of rows) {
    const streamRows = streams.get(row.stream_name);
    if (streamRows === undefined) streams.set(row.stream_name, [row]);
    else streamRows.push(row);
  }
  return streams;
}

/**
 * The store's answer when some events of the append are already stored: a
 * relay appended them and died before marking them sent (or a rival relay
 * did it a moment ago), and this batch holds more rows than that append had.
 * The embedded store refuses such a partly repeated append with
 * DUPLICATE_EVENT_ID; EventStoreDB, whose idempotence under 'any' is best
 * effort, may call it a revision conflict, which 'any' otherwise never is.
 */
function isPartlyRepeatedAppend(error: unknown): boolean {
  return (
    error instanceof EventStoreError &&
    (error.code === 'DUPLICATE_EVENT_ID' || error.code === 'WRONG_EXPECTED_REVISION')
  );
}

interface StreamInput {
  store: EventStore;
  streamName: string;
  rows: readonly UnsentRow[];
  afterAppend: AfterAppend | undefined;
}

/** What one stream's publishing left: rows whose events are stored, and the failure that stopped it. */
interface StreamOutcome {
  appended: UnsentRow[];
  error?: unknown;
}

/**
 * After a partly repeated append: one event at a time in position order,
 * where an event already in this stream is an idempotent no-op, so each
 * event ends up in the stream once. Stops at the first failure: that row and
 * the stream's later rows stay unsent, so the stream's order holds.
 */
async function oneEventAtATime(input: StreamInput): Promise<StreamOutcome> {
  const { store, streamName, rows, afterAppend } = input;
  const appendedRows: UnsentRow[] = [];
  try {
    for (const row of rows) {
      await store.appendToStream(streamName, [toNewEvent(row)], { expectedRevision: 'any' });
      await appended(afterAppend, [row]);
      appendedRows.push(row);
    }
    return { appended: appendedRows };
  } catch (error) {
    return { appended: appendedRows, error };
  }
}

/**
 * What the batch's append did for one stream: all its rows stored, or none
 * (then, after a partly repeated append, one event at a time for this stream
 * alone). A failing afterAppend leaves the stream's rows unsent too.
 */
async function settleStream(
  input: StreamInput & { outcome: SettledAppend | undefined },
): Promise<StreamOutcome> {
  const { outcome, rows, afterAppend } = input;
  if (outcome?.status !== 'fulfilled') {
    const error: unknown = outcome?.reason ?? new Error('The store returned no outcome.');
    return isPartlyRepeatedAppend(error) ? oneEventAtATime(input) : { appended: [], error };
  }
  try {
    await appended(afterAppend, rows);
    return { appended: [...rows] };
  } catch (error) {
    return { appended: [], error };
  }
}

/**
 * One appendToStreams for every stream of the batch, each stream's rows as one
 * append. A call that fails as a whole (a store that could not be reached at
 * all) fails every stream of it.
 */
async function appendStreams(
  store: EventStore,
  streams: readonly (readonly [string, readonly UnsentRow[]])[],
): Promise<SettledAppend[]> {
  if (streams.length === 0) return [];
  const appends = streams.map(([streamName, rows]) => ({
    streamName,
    events: rows.map(toNewEvent),
    expectedRevision: 'any' as const,
  }));
  try {
    return await store.appendToStreams(appends);
  } catch (reason) {
    return appends.map(() => ({ status: 'rejected', reason }));
  }
}

/**
 * Publishes up to `limit` of the oldest unsent rows (up to position `upTo`)
 * in one `appendToStreams` call: one append per stream, of its rows in
 * position order, so each stream's order holds (different streams have none
 * between them). On the embedded store that is one statement and one commit
 * for the whole batch. The store decides each stream on its own: a stream
 * whose append fails keeps its rows unsent while the other streams go on.
 * The rows whose events are stored are then marked sent in one statement.
 */
export async function publishBatch(input: {
  db: Kysely<OutboxTables>;
  store: EventStore;
  limit: number;
  upTo: number | undefined;
  afterAppend?: AfterAppend | undefined;
}): Promise<BatchResult> {
  const { db, store, afterAppend } = input;
  const rows = await readUnsent(db, { limit: input.limit, upTo: input.upTo });
  const streams = [...byStream(rows)];
  const settled = await appendStreams(store, streams);
  const stored: number[] = [];
  const failures: StreamFailure[] = [];
  for (const [index, [streamName, streamRows]] of streams.entries()) {
    const outcome = await settleStream({
      store,
      streamName,
      rows: streamRows,
      afterAppend,
      outcome: settled[index],
    });
    stored.push(...outcome.appended.map((row) => row.position));
    if ('error' in outcome) failures.push({ streamName, error: outcome.error });
  }
  // A crash here leaves rows unsent although their events are stored: the
  // next relay appends them again, which the store accepts as a no-op.
  await markSent(db, stored);
  return { read: rows.length, published: stored.length, failures };
}
