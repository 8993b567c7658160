// Appending to several streams in one statement: one round trip and one
// commit for all of them, `es_append` called once per stream, in the order
// given, each deciding on its own stream exactly as a single append does.
import { sql, type Kysely } from 'kysely';
import type { ExpectedRevision } from '@effectively-once/event-store/port/expected-revision';
import type { ValidEvent } from '@effectively-once/event-store/port/validate-append';
import { toAppendOutcome, type AppendOutcome, type AppendRow } from './append-statement.js';
import type { EventStoreTables } from './event-store.tables.js';

export interface ValidStreamAppend {
  streamName: string;
  events: readonly ValidEvent[];
  expected: ExpectedRevision;
}

/**
 * The statement's parameters: one array per column, so that its text is the
 * same whatever the number of streams and events, and is prepared once per
 * session (ADR 0029). Every event of every stream is in one flat array, the
 * streams' in the order given, each stream's in its own order; a stream's
 * events are the 1-based slice `first_event:last_event` of it.
 */
function parameters(appends: readonly ValidStreamAppend[]) {
  const events = appends.flatMap((append) => append.events);
  let last = 0;
  const bounds = appends.map((append) => {
    const first = last + 1;
    last += append.events.length;
    return { first, last };
  });
  return {
    streamNames: appends.map((append) => append.streamName),
    expectedKinds: appends.map(({ expected }) =>
      typeof expected === 'bigint' ? 'exact' : expected,
    ),
    exactRevisions: appends.map(({ expected }) =>
      typeof expected === 'bigint' ? expected.toString() : null,
    ),
    firstEvents: bounds.map((bound) => bound.first),
    lastEvents: bounds.map((bound) => bound.last),
    ids: events.map((event) => event.id),
    types: events.map((event) => event.type),
    data: events.map((event) => event.dataJson),
    metadata: events.map((event) => event.metadataJson),
  };
}

/**
 * Calls `es_append` once per stream from one statement, so all the streams
 * commit together or not at all. The lateral join calls it for one stream
 * after another in the order given, and each call sees what the earlier ones
 * wrote (a stream named twice, an event id reused across streams), as
 * separate appends would. A call that does not write (wrong revision, ids
 * already stored) reports what it found without raising, so it fails only
 * its own stream. A concurrent writer of the same revision makes the whole
 * statement fail with 23505 and write nothing: retry it.
 *
 * @returns one outcome per append, in the order given
 */
export async function runAppendsStatement(
  db: Kysely<EventStoreTables>,
  appends: readonly ValidStreamAppend[],
): Promise<AppendOutcome[]> {
  const p = parameters(appends);
  const { rows } = await sql<AppendRow>`
    SELECT a.*
      FROM unnest(${p.streamNames}::text[], ${p.expectedKinds}::text[], ${p.exactRevisions}::bigint[],
                  ${p.firstEvents}::int[], ${p.lastEvents}::int[])
           WITH ORDINALITY AS s(stream_name, expected, expected_revision, first_event, last_event, n)
     CROSS JOIN LATERAL es_append(
           s.stream_name,
           (${p.ids}::uuid[])[s.first_event:s.last_event], (${p.types}::text[])[s.first_event:s.last_event],
           (${p.data}::jsonb[])[s.first_event:s.last_event], (${p.metadata}::jsonb[])[s.first_event:s.last_event],
           s.expected, s.expected_revision) a
     ORDER BY s.n`.execute(db);
  if (rows.length !== appends.length) {
    throw new Error(
      `The append statement returned ${String(rows.length)} rows for ${String(appends.length)} streams.`,
    );
  }
  return rows.map(toAppendOutcome);
}
