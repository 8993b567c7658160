import type { GlobalPosition, NewEvent, RecordedEvent } from './envelope.js';
import type { ExpectedRevision } from './expected-revision.js';
import type {
  BlockedMessage,
  CatchUpSubscription,
  ParkedMessage,
  PersistentSubscription,
  ReplayParkedOptions,
  SubscriptionFilter,
  SubscriptionGroupChanges,
  SubscriptionGroupSettings,
} from './subscription.js';

export interface AppendOptions {
  /** Required: an append that checks nothing must say so with `'any'`. A number is read as an exact revision. */
  expectedRevision: ExpectedRevision | number;
}

export interface AppendResult {
  /** The revision of the stream's last event now: pass it as the next `expectedRevision`. */
  nextExpectedRevision: bigint;
  /** The global position of the last event of this append. */
  position: GlobalPosition;
}

/** One stream's part of `appendToStreams`: what `appendToStream` takes, as one object. */
export interface StreamAppend {
  streamName: string;
  events: readonly NewEvent[];
  /** As `AppendOptions.expectedRevision`: required, `'any'` to check nothing. */
  expectedRevision: ExpectedRevision | number;
}

/**
 * One stream's outcome in `appendToStreams`: `fulfilled` with the result
 * `appendToStream` would have resolved with, or `rejected` with the error it
 * would have thrown (the shape `Promise.allSettled` gives).
 */
export type SettledAppend = PromiseSettledResult<AppendResult>;

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive; defaults to the first event forwards and the last one backwards. */
  fromRevision?: bigint | number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive; from the first event when absent. */
  after?: GlobalPosition;
  /** Defaults to 1000. */
  maxCount?: number;
  filter?: SubscriptionFilter;
}

export interface SubscribeToAllOptions {
  /** Exclusive; from the first event when absent. */
  after?: GlobalPosition;
  filter?: SubscriptionFilter;
  /**
   * Live, at least this long between two reads of the store (0 by default:
   * read at every wake-up); a backlog is read without waiting. A steady flow of appends is then read a page at a
   * time instead of one read per append, at the cost of up to this much
   * latency. For views that refresh a screen, never for a projection that
   * must be current. EventStoreDB pushes events instead of being read, so it
   * checks the value and has nothing to space out.
   */
  readIntervalMs?: number;
}

export interface SubscribeToGroupOptions {
  /** Overrides the group's `maxInFlight` for this consumer. */
  maxInFlight?: number;
  /**
   * How many more messages the consumer could start on now (its free slots,
   * a batch's worth each), asked before each lease. A store that leases
   * ahead leases no more than this, so a consumer whose slots are busy holds
   * no lease on a message a peer could handle meanwhile (ADR 0040). Absent:
   * up to `maxInFlight`. The embedded store asks it; EventStoreDB's server
   * pushes up to `maxInFlight` whatever it says.
   */
  canStart?: () => number;
}

/**
 * The event-store port. Application code depends on this interface only and
 * cannot tell the embedded PostgreSQL back end from EventStoreDB; the
 * differences that remain are listed in docs/event-store.md.
 *
 * @example
 * await store.appendToStream('order-42', [{ id: eventId, type: 'OrderPlaced', data: { total: 30 } }], {
 *   expectedRevision: 'no_stream',
 * });
 * for await (const delivery of store.subscribeToGroup('inventory-reservation-v1')) {
 *   await handle(delivery.event);
 *   await delivery.ack();
 * }
 */
export interface EventStore {
  /** `postgres` or `eventstoredb`: for logs and for tests that must know. */
  readonly backend: 'postgres' | 'eventstoredb';
  /**
   * Appends atomically, or throws WrongExpectedRevisionError. Appending the
   * same event ids again at the same expected revision succeeds and writes nothing.
   */
  appendToStream(
    streamName: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult>;
  /**
   * Several streams' appends in one call, for a writer that has events of
   * many streams at once (the outbox relay's batch). Each append is decided
   * on its own, exactly as `appendToStream` would decide it: its expected
   * revision, an idempotent retry of the same ids, DuplicateEventIdError,
   * validation. They are decided in the order given, so a stream named twice
   * sees its first append. One outcome per append comes back, in that order;
   * the call itself rejects only when `appends` is not an array.
   *
   * **Not atomic across streams**: one stream's conflict or bad input fails
   * that stream alone, while the others are written. The embedded store makes
   * it one statement and one commit; EventStoreDB appends one stream after
   * another.
   *
   * @example
   * const [placed, reserved] = await store.appendToStreams([
   *   { streamName: 'order-42', events: [orderPlaced], expectedRevision: 'any' },
   *   { streamName: 'inventory-SKU-1', events: [stockReserved], expectedRevision: 'any' },
   * ]);
   * if (reserved?.status === 'rejected') retryLater(reserved.reason);
   */
  appendToStreams(appends: readonly StreamAppend[]): Promise<SettledAppend[]>;
  /** The stream's events in order; an empty array for a stream that does not exist. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of every stream in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeToAllOptions): CatchUpSubscription;
  createSubscriptionGroup(
    group: string,
    settings?: Partial<SubscriptionGroupSettings>,
  ): Promise<void>;
  updateSubscriptionGroup(group: string, changes: SubscriptionGroupChanges): Promise<void>;
  deleteSubscriptionGroup(group: string): Promise<void>;
  subscribeToGroup(group: string, options?: SubscribeToGroupOptions): PersistentSubscription;
  listParkedMessages(group: string): Promise<ParkedMessage[]>;
  /**
   * Makes the group's parked messages (all, or those of `eventIds`)
   * deliverable again, with their original event ids. EventStoreDB replays a
   * parked list only from its oldest message on: a selection that skips an
   * older parked message there is refused with PARKED_REPLAY_OUT_OF_ORDER.
   */
  replayParkedMessages(group: string, options?: ReplayParkedOptions): Promise<void>;
  /** The messages of a group with an ordering key that wait behind an earlier one of their key, oldest first. */
  listBlockedMessages(group: string): Promise<BlockedMessage[]>;
  close(): Promise<void>;
}
