// Appending to a stream in one statement: one round trip, its own transaction
// (or the caller's), and the optimistic-concurrency decision taken by the
// unique (stream_name, stream_revision) index, not by an earlier read.
import { sql, type Kysely } from 'kysely';
import type { GlobalPosition } from '@effectively-once/event-store/port/envelope';
import type { ExpectedRevision } from '@effectively-once/event-store/port/expected-revision';
import type { ValidEvent } from '@effectively-once/event-store/port/validate-append';
import type { EventStoreTables } from './event-store.tables.js';

export interface ExistingEvent {
  event_id: string;
  stream_name: string;
  stream_revision: number;
  global_position: number;
  transaction_id: string;
}

export interface AppendOutcome {
  /** The stream's last revision before this statement, null for no stream. */
  currentRevision: bigint | null;
  /** Set when this statement wrote the events. */
  written: { revision: bigint; position: GlobalPosition } | undefined;
  /** Events of the batch whose ids were already stored (an idempotent retry, or misuse). */
  existing: ExistingEvent[];
}

/** What one call of `es_append` returns. */
export interface AppendRow {
  current_revision: number | null;
  last_revision: number | null;
  last_position: number | null;
  last_transaction_id: string | null;
  existing: ExistingEvent[];
}

/** `es_append`'s row as the outcome the caller decides on. */
export function toAppendOutcome(row: AppendRow): AppendOutcome {
  const written =
    row.last_revision === null || row.last_position === null || row.last_transaction_id === null
      ? undefined
      : {
          revision: BigInt(row.last_revision),
          position: { commit: BigInt(row.last_transaction_id), prepare: BigInt(row.last_position) },
        };
  return {
    currentRevision: row.current_revision === null ? null : BigInt(row.current_revision),
    written,
    existing: row.existing,
  };
}

/**
 * Calls `es_append` (see the migration). It writes only when no event id of
 * the batch exists yet and the expected revision holds; otherwise it writes
 * nothing and reports what it found, for the caller to turn into success
 * (idempotent retry) or a typed error. A concurrent writer of the same
 * revision makes it fail with 23505 instead: retry the statement.
 */
export async function runAppendStatement(
  db: Kysely<EventStoreTables>,
  input: { streamName: string; events: readonly ValidEvent[]; expected: ExpectedRevision },
): Promise<AppendOutcome> {
  const { streamName, events, expected } = input;
  const exact = typeof expected === 'bigint' ? expected.toString() : null;
  const { rows } = await sql<AppendRow>`
    SELECT * FROM es_append(
      ${streamName}, ${events.map((event) => event.id)}::uuid[], ${events.map((event) => event.type)}::text[],
      ${events.map((event) => event.dataJson)}::jsonb[], ${events.map((event) => event.metadataJson)}::jsonb[],
      ${typeof expected === 'bigint' ? 'exact' : expected}, ${exact}::bigint)`.execute(db);
  const row = rows[0];
  if (row === undefined) throw new Error('The append statement returned no row.');
  return toAppendOutcome(row);
}
