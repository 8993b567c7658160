// One batch of the relay: the oldest unsent rows, appended stream by stream,
// each row marked sent only after the store accepted its event.
import { EventStoreError, type EventStore, type NewEvent } from '@effectively-once/event-store';
import type { Kysely } from 'kysely';
import { markSent, readUnsent, type UnsentRow } from './outbox.repository.js';
import type { OutboxTables } from './outbox.table.js';

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
  db: Kysely<OutboxTables>;
  store: EventStore;
  streamName: string;
  rows: readonly UnsentRow[];
}

/**
 * One append for the stream's rows; after a partly repeated append, one
 * event at a time in position order, where an event already in this stream
 * is an idempotent no-op. Either way each event ends up in the stream once.
 * Calls `marked` with each count of rows marked sent; throws at the first
 * failure, leaving that row and the stream's later rows unsent.
 */
async function publishStream(input: StreamInput, marked: (count: number) => void): Promise<void> {
  const { db, store, streamName, rows } = input;
  try {
    await store.appendToStream(streamName, rows.map(toNewEvent), { expectedRevision: 'any' });
  } catch (error) {
    if (!isPartlyRepeatedAppend(error)) throw error;
    for (const row of rows) {
      await store.appendToStream(streamName, [toNewEvent(row)], { expectedRevision: 'any' });
      await markSent(db, [row.position]);
      marked(1);
    }
    return;
  }
  // A crash here leaves the rows unsent although their events are stored:
  // the next relay appends them again, which the store accepts as a no-op.
  await markSent(
    db,
    rows.map((row) => row.position),
  );
  marked(rows.length);
}

/**
 * Publishes up to `limit` of the oldest unsent rows (up to position `upTo`).
 * A stream whose append fails keeps its rows unsent, so its order holds;
 * the other streams of the batch go on.
 */
export async function publishBatch(input: {
  db: Kysely<OutboxTables>;
  store: EventStore;
  limit: number;
  upTo: number | undefined;
}): Promise<BatchResult> {
  const { db, store } = input;
  const rows = await readUnsent(db, { limit: input.limit, upTo: input.upTo });
  const result: BatchResult = { read: rows.length, published: 0, failures: [] };
  for (const [streamName, streamRows] of byStream(rows)) {
    try {
      await publishStream({ db, store, streamName, rows: streamRows }, (count) => {
        result.published += count;
      });
    } catch (error) {
      result.failures.push({ streamName, error });
    }
  }
  return result;
}
