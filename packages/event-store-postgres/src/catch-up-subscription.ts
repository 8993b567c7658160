// A catch-up subscription on the embedded store: read the global order after a
// position in pages, then keep following it, woken by NOTIFY or the poll. With
// a read interval, live reads are spaced: a wake-up that comes sooner after
// the last read waits out the rest, and whatever was appended meanwhile comes
// in that one page (the console's feed: one read per interval, not per append).
import type { Kysely } from 'kysely';
import {
  comparePositions,
  START_POSITION,
  type GlobalPosition,
  type RecordedEvent,
} from '@effectively-once/event-store/port/envelope';
import type {
  CatchUpSubscription,
  SubscriptionFilter,
} from '@effectively-once/event-store/port/subscription';
import type { EventStoreTables } from './event-store.tables.js';
import type { NotifyChannels } from './append-channels.js';
import { openListenerSession, type ListenerSession } from './listener-session.js';
import { heldBackBackoff } from './held-back.js';
import { loadXmin } from './idle-state.js';
import { readPage, toRecordedEvent } from './read.js';
import { closableIterable } from './closable-iterable.js';

const PAGE_SIZE = 500;

export interface CatchUpOptions {
  db: Kysely<EventStoreTables>;
  url: string;
  after: GlobalPosition | undefined;
  filter: SubscriptionFilter | undefined;
  pollIntervalMs: number;
  /** Which channels its session LISTENs to (append-channels.ts). */
  notifyChannels: NotifyChannels;
  /** Live, the least time between two reads (already checked: parseReadInterval). */
  readIntervalMs: number;
}

/**
 * @example
 * for await (const event of openCatchUpSubscription({ db, url, after: checkpoint, filter: undefined, pollIntervalMs: 500, notifyChannels: 'per-type', readIntervalMs: 0 })) {
 *   await project(event);
 * }
 */
export function openCatchUpSubscription(options: CatchUpOptions): CatchUpSubscription {
  let closed = false;
  let session: ListenerSession | undefined;

  async function* events(): AsyncGenerator<RecordedEvent, void, undefined> {
    const listener = await openListenerSession(options.url, options.filter, options.notifyChannels);
    session = listener;
    const backoff = heldBackBackoff(options.pollIntervalMs);
    // The cursor is a position in (transaction_id, global_position) order, and
    // reads stop below the snapshot's xmin, so nothing can later appear behind it.
    let after = options.after ?? START_POSITION;
    let lastReadAt = -Infinity;
    try {
      while (!closed) {
        const failure = listener.failure();
        if (failure !== undefined) throw failure;
        if (!(await spacedAfter(listener, lastReadAt))) break;
        lastReadAt = performance.now();
        const { rows, scannedTo, heldBack } = await readPage(options.db, {
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
          // Past the events the filter skipped too, so they are never read again.
          if (scannedTo !== undefined && comparePositions(scannedTo, after) > 0) after = scannedTo;
          await waitForMore(listener, backoff, heldBack);
        } else {
          // Catching up: the next page at once; only live reads are spaced.
          lastReadAt = -Infinity;
        }
      }
    } finally {
      closed = true;
      await listener.close();
    }
  }

  /**
   * Waits until the read interval has passed since the last read; false when
   * closed meanwhile. A NOTIFY does not end the wait (the read that follows
   * covers it); close() does.
   */
  async function spacedAfter(listener: ListenerSession, lastReadAt: number): Promise<boolean> {
    for (;;) {
      if (closed) return false;
      const remainingMs = lastReadAt + options.readIntervalMs - performance.now();
      if (remainingMs <= 0) return true;
      await listener.wakeup.wait(remainingMs);
    }
  }

  /**
   * Sleeps until an append its filter matches, the poll interval, or (when
   * events are held back) the snapshot's xmin moved, checked with a backoff.
   */
  async function waitForMore(
    listener: ListenerSession,
    backoff: ReturnType<typeof heldBackBackoff>,
    heldBack: boolean,
  ): Promise<void> {
    if (!heldBack) {
      await listener.wakeup.wait(options.pollIntervalMs);
      return;
    }
    let xmin = await loadXmin(options.db);
    while (!closed) {
      const waitMs = backoff.waitAfter(xmin);
      if (await listener.wakeup.wait(waitMs)) return;
      if (waitMs >= options.pollIntervalMs) return;
      const now = await loadXmin(options.db);
      if (backoff.moved(now)) return;
      xmin = now;
    }
  }

  const iterator = events();
  return closableIterable(iterator, () => {
    closed = true;
    session?.wakeup.signal();
  });
}
