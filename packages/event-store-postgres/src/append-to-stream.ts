import type { Kysely } from 'kysely';
import type { NewEvent } from '@effectively-once/event-store/port/envelope';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
} from '@effectively-once/event-store/port/errors';
import type { AppendResult } from '@effectively-once/event-store/port/event-store';
import {
  parseExpectedRevision,
  type ExpectedRevision,
} from '@effectively-once/event-store/port/expected-revision';
import {
  validateAppend,
  type ValidEvent,
} from '@effectively-once/event-store/port/validate-append';
import { runAppendStatement, type AppendOutcome, type ExistingEvent } from './append-statement.js';
import type { EventStoreTables } from './event-store.tables.js';

/** A lost race re-runs the statement, which then sees the winner; more than a few means a bug. */
const MAX_STATEMENT_ATTEMPTS = 5;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}

/**
 * Runs an append statement, and again after a lost race: another writer took
 * a revision first (23505), the statement rolled back, and its next run sees
 * the winner and decides from that.
 *
 * @example
 * const outcome = await retryLostRace(() => runAppendStatement(db, input));
 */
export async function retryLostRace<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= MAX_STATEMENT_ATTEMPTS) throw error;
    }
  }
}

function holds(expected: ExpectedRevision, current: bigint | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === null;
  if (expected === 'stream_exists') return current !== null;
  return current === expected;
}

/**
 * EventStoreDB's idempotence rule: the whole batch is already in this stream,
 * in this order, right after the revision the writer expected.
 */
function isSameAppend(
  streamName: string,
  events: readonly ValidEvent[],
  expected: ExpectedRevision,
  existing: readonly ExistingEvent[],
): boolean {
  const first = existing[0];
  if (first === undefined || existing.length !== events.length) return false;
  const firstRevision = BigInt(first.stream_revision);
  const startsRight =
    expected === 'no_stream'
      ? firstRevision === 0n
      : typeof expected === 'bigint'
        ? firstRevision === expected + 1n
        : true;
  return (
    startsRight &&
    existing.every(
      (row, index) =>
        row.stream_name === streamName &&
        row.event_id === events[index]?.id &&
        BigInt(row.stream_revision) === firstRevision + BigInt(index),
    )
  );
}

/** The append's result, or the typed error it ends in, from what `es_append` found. */
export function decide(
  streamName: string,
  events: readonly ValidEvent[],
  expected: ExpectedRevision,
  outcome: AppendOutcome,
): AppendResult {
  if (outcome.written !== undefined) {
    return { nextExpectedRevision: outcome.written.revision, position: outcome.written.position };
  }
  const last = outcome.existing.at(-1);
  if (last !== undefined && isSameAppend(streamName, events, expected, outcome.existing)) {
    return {
      nextExpectedRevision: BigInt(last.stream_revision),
      position: { commit: BigInt(last.transaction_id), prepare: BigInt(last.global_position) },
    };
  }
  if (!holds(expected, outcome.currentRevision)) {
    throw new WrongExpectedRevisionError(
      streamName,
      expected,
      outcome.currentRevision ?? 'no_stream',
    );
  }
  const ids = outcome.existing.map((row) => row.event_id);
  throw new DuplicateEventIdError(
    ids,
    `Event id(s) ${ids.join(', ')} already belong to stored events (${outcome.existing.map((row) => `${row.stream_name}@${String(row.stream_revision)}`).join(', ')}) and this append is not a retry of that one; nothing was written. Give each new event its own id.`,
  );
}

/**
 * Validates, appends, and turns what the statement found into a result or a
 * typed error.
 *
 * @example
 * await appendToStream(db, { streamName: 'order-42', events, expectedRevision: 'no_stream', maxEventBytes });
 */
export async function appendToStream(
  db: Kysely<EventStoreTables>,
  input: {
    streamName: string;
    events: readonly NewEvent[];
    expectedRevision: unknown;
    maxEventBytes: number;
  },
): Promise<AppendResult> {
  const expected = parseExpectedRevision(input.expectedRevision);
  const events = validateAppend(input.streamName, input.events, input.maxEventBytes);
  const { streamName } = input;
  const outcome = await retryLostRace(() =>
    runAppendStatement(db, { streamName, events, expected }),
  );
  return decide(streamName, events, expected, outcome);
}
