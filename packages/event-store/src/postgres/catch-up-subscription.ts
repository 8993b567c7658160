// A catch-up subscription on the embedded store: read the global order after a
// position in pages, then keep following it, woken by NOTIFY or the poll.
import type { Kysely } from 'kysely';
import { START_POSITION, type GlobalPosition, type RecordedEvent } from '../port/envelope.js';
import type { CatchUpSubscription, SubscriptionFilter } from '../port/subscription.js';
import type { EventStoreTables } from './event-store.tables.js';
import { openListenerSession, type ListenerSession } from './listener-session.js';
import { HELD_BACK_RECHECK_MS, hasUnreadEvents, readAllRows, toRecordedEvent } from './read.js';
import { closableIterable } from './closable-iterable.js';

const PAGE_SIZE = 500;

export interface CatchUpOptions {
  db: Kysely<EventStoreTables>;
  url: string;
  after: GlobalPosition | undefined;
  filter: SubscriptionFilter | undefined;
  pollIntervalMs: number;
}

/**
 * @example
 * for await (const event of openCatchUpSubscription({ db, url, after: checkpoint, filter: undefined, pollIntervalMs: 500 })) {
 *   await project(event);
 * }
 */
export function openCatchUpSubscription(options: CatchUpOptions): CatchUpSubscription {
  let closed = false;
  let session: ListenerSession | undefined;

  async function* events(): AsyncGenerator<RecordedEvent, void, undefined> {
    const listener = await openListenerSession(options.url);
    session = listener;
    // The cursor is a position in (transaction_id, global_position) order, and
    // reads stop below the snapshot's xmin, so nothing can later appear behind it.
    let after = options.after ?? START_POSITION;
    try {
      while (!closed) {
        const failure = listener.failure();
        if (failure !== undefined) throw failure;
        const rows = await readAllRows(options.db, {
          after,
          maxCount: PAGE_SIZE,
          filter: options.filter,
        });
        for (const row of rows) {
          const event = toRecordedEvent(row);
          after = event.position;
          yield event;
        }
        if (rows.length < PAGE_SIZE) {
          const held = await hasUnreadEvents(options.db, { after, filter: options.filter });
          await listener.wakeup.wait(held ? HELD_BACK_RECHECK_MS : options.pollIntervalMs);
        }
      }
    } finally {
      closed = true;
      await listener.close();
    }
  }

  const iterator = events();
  return closableIterable(iterator, () => {
    closed = true;
    session?.wakeup.signal();
  });
}
