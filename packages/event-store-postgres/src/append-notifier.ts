// Wakes subscribers after appends commit. Not NOTIFY inside the append: a
// notifying transaction holds a database-wide lock from its pre-commit to the
// end of its commit, WAL flush included, which serializes every concurrent
// append. Instead one NOTIFY goes out after commit, in a transaction without
// writes (no flush), and appends that finish meanwhile share the next one. If
// this process dies between commit and NOTIFY, subscribers' polling finds the
// events anyway. The NOTIFY goes on the general channel and on each appended
// type's channel (append-channels.ts), all in that one statement.
import { sql, type Kysely } from 'kysely';
import { announceOnChannels, type Appended } from './append-announcement.js';
import type { EventStoreTables } from './event-store.tables.js';

export interface AppendNotifier {
  /** Call after an append committed; returns at once. */
  appended(append: Appended): void;
  /** Resolves once the notifications asked for so far are sent. */
  flush(): Promise<void>;
}

/**
 * @example
 * const notifier = createAppendNotifier(db);
 * await appendToStream(...);
 * notifier.appended({ streamName: 'order-42', types: ['OrderPlaced'] });
 */
export function createAppendNotifier(db: Kysely<EventStoreTables>): AppendNotifier {
  // Appends that finish while a NOTIFY is on its way are covered by one
  // more, which announces all of them, not one each.
  let unannounced: Appended[] = [];
  let sending: Promise<void> | undefined;
  const send = async () => {
    while (unannounced.length > 0) {
      const announcements = announceOnChannels(unannounced);
      unannounced = [];
      // A lost notification costs one poll interval of latency, never an event.
      await sql`
        SELECT pg_notify(sent.channel, sent.payload)
          FROM unnest(${announcements.map((sent) => sent.channel)}::text[],
                      ${announcements.map((sent) => sent.payload)}::text[]) AS sent(channel, payload)`
        .execute(db)
        .catch(() => undefined);
    }
    sending = undefined;
  };
  return {
    appended: (append) => {
      unannounced.push(append);
      sending ??= send();
    },
    flush: async () => {
      await sending;
    },
  };
}
