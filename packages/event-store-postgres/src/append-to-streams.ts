import type { Kysely } from 'kysely';
import { assertAppendList } from '@effectively-once/event-store/port/append-each-in-turn';
import type { SettledAppend, StreamAppend } from '@effectively-once/event-store/port/event-store';
import { parseExpectedRevision } from '@effectively-once/event-store/port/expected-revision';
import { validateAppend } from '@effectively-once/event-store/port/validate-append';
import { runAppendsStatement, type ValidStreamAppend } from './append-streams-statement.js';
import { decide, retryLostRace } from './append-to-stream.js';
import type { EventStoreTables } from './event-store.tables.js';

type Checked = ValidStreamAppend | PromiseRejectedResult;

const isValid = (checked: Checked): checked is ValidStreamAppend => !('status' in checked);

/** Validated as `appendToStream` validates, or that stream's rejection: bad input fails its own stream only. */
function check(append: StreamAppend, maxEventBytes: number): Checked {
  try {
    const expected = parseExpectedRevision(append.expectedRevision);
    const events = validateAppend(append.streamName, append.events, maxEventBytes);
    return { streamName: append.streamName, events, expected };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

/** Each valid append's outcome; a statement that fails (a lost connection) fails every stream of it. */
async function settleValid(
  db: Kysely<EventStoreTables>,
  appends: readonly ValidStreamAppend[],
): Promise<Map<ValidStreamAppend, SettledAppend>> {
  const settled = new Map<ValidStreamAppend, SettledAppend>();
  if (appends.length === 0) return settled;
  try {
    // A lost race rolled every stream of the statement back: all run again.
    const outcomes = await retryLostRace(() => runAppendsStatement(db, appends));
    appends.forEach((append, index) => {
      const outcome = outcomes[index];
      try {
        if (outcome === undefined) throw new Error('The append statement lost a stream.');
        const value = decide(append.streamName, append.events, append.expected, outcome);
        settled.set(append, { status: 'fulfilled', value });
      } catch (reason) {
        settled.set(append, { status: 'rejected', reason });
      }
    });
  } catch (reason) {
    for (const append of appends) settled.set(append, { status: 'rejected', reason });
  }
  return settled;
}

/**
 * Several streams' appends in one statement, one round trip and one commit,
 * each decided as `appendToStream` decides it; see EventStore.appendToStreams.
 *
 * @example
 * const [a, b] = await appendToStreams(db, { appends: [{ streamName: 'order-1', events, expectedRevision: 'any' }, …], maxEventBytes });
 */
export async function appendToStreams(
  db: Kysely<EventStoreTables>,
  input: { appends: readonly StreamAppend[]; maxEventBytes: number },
): Promise<SettledAppend[]> {
  assertAppendList(input.appends);
  const checked = input.appends.map((append) => check(append, input.maxEventBytes));
  const settled = await settleValid(db, checked.filter(isValid));
  return checked.map((item) =>
    isValid(item)
      ? (settled.get(item) ?? { status: 'rejected', reason: new Error('An append was lost.') })
      : item,
  );
}
