// For the commit-order inversion test: an append whose transaction stays open
// on its own connection until the test commits it.
import { connect } from '@effectively-once/postgres';
import type { NewEvent } from '@effectively-once/event-store/port/envelope';
import {
  DEFAULT_MAX_EVENT_BYTES,
  validateAppend,
} from '@effectively-once/event-store/port/validate-append';
import { runAppendStatement } from '../append-statement.js';
import type { EventStoreTables } from '../event-store.tables.js';

/**
 * Resolves once the events are inserted (their positions taken) but not
 * committed; `commit()` commits them.
 *
 * @example
 * const held = await holdAppendOpen(url, 'order-1', [event]);
 * await held.commit();
 */
export async function holdAppendOpen(url: string, streamName: string, events: NewEvent[]) {
  const db = connect<EventStoreTables>(url, {
    maxConnections: 1,
    applicationName: 'event-store-held-append',
  });
  const valid = validateAppend(streamName, events, DEFAULT_MAX_EVENT_BYTES);
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let inserted: () => void = () => undefined;
  const insertedPromise = new Promise<void>((resolve) => (inserted = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await runAppendStatement(trx, { streamName, events: valid, expected: 'any' });
    inserted();
    await released;
  });
  await Promise.race([insertedPromise, transaction]);
  return {
    commit: async () => {
      release();
      await transaction;
      await db.destroy();
    },
  };
}
