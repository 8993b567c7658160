import { connect } from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { subscriptionRegistry } from '@effectively-once/event-store/port/subscription-registry';
import type { EventStore } from '@effectively-once/event-store/port/event-store';
import { parseReadInterval } from '@effectively-once/event-store/port/read-interval';
import { DEFAULT_MAX_EVENT_BYTES } from '@effectively-once/event-store/port/validate-append';
import { listBlocked } from './blocked.js';
import { parseAckDelay } from './ack-delay.js';
import { createAppendNotifier } from './append-notifier.js';
import { appendToStream } from './append-to-stream.js';
import { appendToStreams } from './append-to-streams.js';
import { openCatchUpSubscription } from './catch-up-subscription.js';
import type { EventStoreTables } from './event-store.tables.js';
import { createGroup, deleteGroup, updateGroup } from './groups.js';
import { listParked, replayParked } from './parked.js';
import { openPersistentSubscription } from './persistent-subscription.js';
import { readAll, readStream } from './read.js';
import type { WakeConsumers } from './wake-choice.js';
import type { NotifyChannels } from './append-channels.js';

/** The same database, with `synchronous_commit = off` for every session of the pool. */
function withAsynchronousCommit(url: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options ?? ''} -c synchronous_commit=off`.trim());
  return parsed.toString();
}

export interface PostgresEventStoreOptions {
  /** The database that holds the store's tables (run `eventStoreMigrations` on it first). */
  url: string;
  /** JSON bytes of data plus metadata one event may have; 1 MiB by default. */
  maxEventBytes?: number;
  /** How often subscribers look for work when no notification comes; 500 ms by default. */
  pollIntervalMs?: number;
  /** Pool size for appends, reads and settlements; each subscriber also opens one connection of its own. */
  maxConnections?: number;
  /** Called each time a consumer has looked for new events of its group: for metrics, and for tests to wait on. */
  onGroupPumped?: (group: string) => void;
  /**
   * How long an acknowledgment may wait to ride with the round that leases
   * the next message, instead of costing a commit of its own; 0 (the
   * default) sends it at once. See docs/event-store.md, "Acks that wait".
   */
  ackDelayMs?: number;
  /**
   * Whether an append wakes one consumer of each group per stream it names
   * ('one', the default) or every consumer of the group ('all'). See
   * docs/event-store.md, "Wake-ups", and ADR 0039.
   */
  wakeConsumers?: WakeConsumers;
  /**
   * Whether a consumer's poll first asks, read-only, whether a round would do
   * anything (true, the default), or runs the round, a commit, every time.
   * See docs/event-store.md, "A consumer's loop".
   */
  idleCheck?: boolean;
  /**
   * Which channels a subscriber LISTENs to: only its event types' channels
   * when its filter names types ('per-type', the default), or every append
   * ('one'). Appends are announced on both either way. See
   * docs/event-store.md, "Wake-ups".
   */
  notifyChannels?: NotifyChannels;
}

/**
 * The embedded event store: streams, global order and persistent subscriptions
 * on PostgreSQL, behaving as EventStoreDB's do (see docs/event-store.md).
 *
 * @example
 * const store = createPostgresEventStore({ url });
 * await store.appendToStream('order-42', [{ id: randomUUID(), type: 'OrderPlaced', data: {} }], { expectedRevision: 'no_stream' });
 */
export function createPostgresEventStore(options: PostgresEventStoreOptions): EventStore {
  const db: Kysely<EventStoreTables> = connect<EventStoreTables>(options.url, {
    maxConnections: options.maxConnections ?? 10,
    applicationName: 'event-store',
  });
  // Subscription bookkeeping (pumps, leases, acks) commits without waiting for
  // the WAL flush: a server crash can lose its last few milliseconds, which
  // only means those messages are delivered again. Appends stay durable.
  const bookkeeping = connect<EventStoreTables>(withAsynchronousCommit(options.url), {
    maxConnections: options.maxConnections ?? 10,
    applicationName: 'event-store-subscriptions',
  });
  const notifier = createAppendNotifier(bookkeeping);
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const ackDelayMs = parseAckDelay(options.ackDelayMs);
  const subscriptions = subscriptionRegistry();

  return {
    backend: 'postgres',
    appendToStream: async (streamName, events, { expectedRevision }) => {
      const result = await appendToStream(db, {
        streamName,
        events,
        expectedRevision,
        maxEventBytes,
      });
      notifier.appended({ streamName, types: events.map((event) => event.type) });
      return result;
    },
    appendToStreams: async (appends) => {
      const settled = await appendToStreams(db, { appends, maxEventBytes });
      // After the one commit, as for a single append: each stream that now holds its events.
      settled.forEach((outcome, index) => {
        const append = appends[index];
        if (outcome.status === 'fulfilled' && append !== undefined) {
          const types = append.events.map((event) => event.type);
          notifier.appended({ streamName: append.streamName, types });
        }
      });
      return settled;
    },
    readStream: (streamName, readOptions) => readStream(db, streamName, readOptions),
    readAll: (readOptions) => readAll(db, readOptions),
    subscribeToAll: (subscribeOptions = {}) =>
      subscriptions.track(
        openCatchUpSubscription({
          db,
          url: options.url,
          after: subscribeOptions.after,
          filter: subscribeOptions.filter,
          pollIntervalMs,
          notifyChannels: options.notifyChannels ?? 'per-type',
          readIntervalMs: parseReadInterval(subscribeOptions.readIntervalMs),
        }),
      ),
    createSubscriptionGroup: (group, settings) => createGroup(db, group, settings),
    updateSubscriptionGroup: (group, changes) => updateGroup(db, group, changes),
    deleteSubscriptionGroup: (group) => deleteGroup(db, group),
    subscribeToGroup: (group, subscribeOptions = {}) =>
      subscriptions.track(
        openPersistentSubscription({
          db: bookkeeping,
          url: options.url,
          group,
          maxInFlight: subscribeOptions.maxInFlight,
          canStart: subscribeOptions.canStart,
          pollIntervalMs,
          onGroupPumped: options.onGroupPumped,
          ackDelayMs,
          wakeConsumers: options.wakeConsumers ?? 'one',
          idleCheck: options.idleCheck ?? true,
          notifyChannels: options.notifyChannels ?? 'per-type',
        }),
      ),
    listParkedMessages: (group) => listParked(db, group),
    replayParkedMessages: (group, replayOptions = {}) =>
      replayParked(db, group, replayOptions.eventIds),
    listBlockedMessages: (group) => listBlocked(db, group),
    close: async () => {
      await subscriptions.closeAll();
      await notifier.flush();
      await Promise.all([db.destroy(), bookkeeping.destroy()]);
    },
  };
}
