// Persistent subscription groups, as EventStoreDB defines them: the server
// (here: the store) keeps the group's position and its in-flight messages, and
// competing consumers of the group share its events, each acknowledged once.
import { z } from 'zod';
import { describeValue } from './describe-value.js';
import type { GlobalPosition, RecordedEvent } from './envelope.js';
import { SubscriptionGroupError } from './errors.js';

/** Which events a group or a catch-up subscription receives. Evaluated by the store, not the client. */
export type SubscriptionFilter =
  | { readonly kind: 'all' }
  | { readonly kind: 'stream_prefix'; readonly prefixes: readonly string[] }
  | { readonly kind: 'event_type'; readonly types: readonly string[] };

/**
 * `round_robin`: every live consumer of the group takes the next free messages.
 * `dispatch_to_single`: one consumer gets everything; another takes over when it dies.
 */
export type ConsumerStrategy = 'round_robin' | 'dispatch_to_single';

/**
 * Where a message's ordering key comes from: the stream name, or a string
 * field of the event's metadata or data (for example `correlationId`, the
 * order every message of an order carries). An event without the field has no
 * key and is ordered with nobody.
 */
export type OrderingKeySource =
  { readonly from: 'stream' } | { readonly from: 'metadata' | 'data'; readonly field: string };

/**
 * Per-key ordering: messages with the same key are delivered one at a time,
 * in log order. While one is in flight, waiting for its retry or parked, the
 * later ones of its key wait behind it ("blocked by" it); other keys flow on.
 * A parked message would hold its key forever, so `supersedeParkedWith` names
 * the event types that may pass it: when one of them is next behind a parked
 * message, the parked message is marked superseded (it stays listed, with the
 * event that passed it) and stops blocking. See docs/ordering-keys.md.
 */
export interface OrderingKey {
  readonly source: OrderingKeySource;
  readonly supersedeParkedWith: readonly string[];
}

/**
 * Where a new group starts: the first event, the end at creation, a position
 * (inclusive), or a time. `{ recordedAtOrAfter }` starts right after the last
 * event recorded before that time, so no event older than it is delivered
 * (events still being appended while the group is created come too, as with
 * `end`). A consumer's replay horizon is such a time: history older than it
 * may have lost its markers, so a new group must not hand it over again.
 */
export type StartFrom = 'start' | 'end' | GlobalPosition | TimeStart;

export interface TimeStart {
  readonly recordedAtOrAfter: Date;
}

/** Whether a group starts at a time, which each back end turns into a position when it creates the group. */
export function isTimeStart(startFrom: StartFrom): startFrom is TimeStart {
  return typeof startFrom === 'object' && 'recordedAtOrAfter' in startFrom;
}

export interface SubscriptionGroupSettings {
  readonly filter: SubscriptionFilter;
  readonly startFrom: StartFrom;
  /** A message is parked once it would be delivered for the (maxRetryCount + 1)-th retry. */
  readonly maxRetryCount: number;
  /**
   * A delivery not settled within this time is delivered again. It must exceed
   * the slowest handler, in-process retries included, or work runs twice at once.
   */
  readonly messageTimeoutMs: number;
  /** Unsettled deliveries one consumer may hold at once. */
  readonly maxInFlight: number;
  readonly consumerStrategy: ConsumerStrategy;
  /** Absent: no ordering, every free message may be delivered at once. */
  readonly orderingKey?: OrderingKey | undefined;
}

/** What `updateSubscriptionGroup` may change. The filter and start are fixed at creation, as in EventStoreDB. */
export type SubscriptionGroupChanges = Partial<
  Pick<
    SubscriptionGroupSettings,
    'maxRetryCount' | 'messageTimeoutMs' | 'maxInFlight' | 'consumerStrategy'
  >
> & {
  /** `null` removes the ordering. Messages already in the group keep the key they entered with. */
  orderingKey?: OrderingKey | null;
};

const names = z.array(z.string().min(1).max(200)).min(1).max(100);
const FilterSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('stream_prefix'), prefixes: names }),
  z.object({ kind: z.literal('event_type'), types: names }),
]);
const fieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a field name');
const OrderingKeySchema = z.object({
  source: z.discriminatedUnion('from', [
    z.object({ from: z.literal('stream') }),
    z.object({ from: z.enum(['metadata', 'data']), field: fieldName }),
  ]),
  supersedeParkedWith: z.array(z.string().min(1).max(200)).max(100).default([]),
});
const position = z.object({ commit: z.bigint().nonnegative(), prepare: z.bigint().nonnegative() });

const ChangesSchema = z.object({
  maxRetryCount: z.number().int().min(0).max(1000),
  messageTimeoutMs: z.number().int().min(100).max(3_600_000),
  maxInFlight: z.number().int().min(1).max(1000),
  consumerStrategy: z.enum(['round_robin', 'dispatch_to_single']),
  orderingKey: OrderingKeySchema.nullable(),
});
const SettingsSchema = ChangesSchema.extend({
  orderingKey: OrderingKeySchema.optional(),
  filter: FilterSchema,
  startFrom: z.union([
    z.literal('start'),
    z.literal('end'),
    position,
    z.object({ recordedAtOrAfter: z.date() }),
  ]),
});

/** EventStoreDB's defaults, except `startFrom`, which is `end` there too. */
export const DEFAULT_GROUP_SETTINGS: SubscriptionGroupSettings = Object.freeze({
  filter: { kind: 'all' } as const,
  startFrom: 'end',
  maxRetryCount: 10,
  messageTimeoutMs: 30_000,
  maxInFlight: 10,
  consumerStrategy: 'round_robin',
});

const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

export function assertGroupName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !GROUP_NAME.test(name)) {
    throw new SubscriptionGroupError(
      'INVALID_SUBSCRIPTION_SETTINGS',
      `Invalid subscription group name ${describeValue(name)}: use 1-100 letters, digits and "_.:-", e.g. "inventory-reservation-v1".`,
    );
  }
}

function invalid(error: z.ZodError): SubscriptionGroupError {
  const problems = error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
  return new SubscriptionGroupError(
    'INVALID_SUBSCRIPTION_SETTINGS',
    `Invalid subscription group settings: ${problems.join('; ')}.`,
  );
}

/**
 * Defaults filled in and every value checked, before any I/O.
 *
 * @example
 * const settings = parseGroupSettings({ filter: { kind: 'stream_prefix', prefixes: ['order-'] }, maxRetryCount: 3 });
 */
export function parseGroupSettings(
  input: Partial<SubscriptionGroupSettings> = {},
): SubscriptionGroupSettings {
  const parsed = SettingsSchema.safeParse({ ...DEFAULT_GROUP_SETTINGS, ...input });
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/** Checks the changes of an update; unknown keys (such as `filter`) are refused. */
export function parseGroupChanges(input: SubscriptionGroupChanges): SubscriptionGroupChanges {
  const parsed = ChangesSchema.partial().strict().safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data as SubscriptionGroupChanges;
}

/** `retry`: deliver again (after `retryAfterMs`). `park`: set aside for an operator. `skip`: drop. */
export type NackAction = 'retry' | 'park' | 'skip';

export interface NackOptions {
  /**
   * `retry` only: the message is not delivered again before this many
   * milliseconds have passed. The consumer's slot is free at once; the store
   * holds the message (durably: a restart does not shorten the wait).
   */
  readonly retryAfterMs?: number;
  /**
   * `retry` only; true unless given. `false`: this delivery does not count
   * toward the group's maxRetryCount, so the message is never parked for it,
   * and its redelivery carries the same `retryCount`.
   *
   * Why: a compensation (release a reservation, void an authorization) must
   * be retried until it succeeds; an outage longer than the retry budget
   * would otherwise park it and leave the order half undone. Only the
   * failures the consumer itself reports are uncounted: a delivery that is
   * never settled (the process crashed, the lease ran out) still counts, so
   * a message that kills its consumer on every delivery is still parked.
   */
  readonly counted?: boolean;
}

/** The longest wait a retry may ask for: longer waits are what parking is for. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** One delivery of one event to one consumer of a group; settle it exactly once. */
export interface Delivery {
  readonly event: RecordedEvent;
  /**
   * 0 on the first delivery; each redelivery (nack, timeout, dead consumer)
   * adds one, except after a `nack('retry', …, { counted: false })`.
   */
  readonly retryCount: number;
  ack(): Promise<void>;
  nack(action: NackAction, reason: string, options?: NackOptions): Promise<void>;
}

/** A consumer's connection to a group. Iterate it; `close()` ends the iteration. */
export interface PersistentSubscription extends AsyncIterable<Delivery> {
  close(): Promise<void>;
}

/** A catch-up subscription: every matching event after a position, then new ones as they come. */
export interface CatchUpSubscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface ReplayParkedOptions {
  /**
   * Only these parked messages, by event id; every parked message of the
   * group when absent. Ids that are not parked (any more) are left alone, so
   * a message parked after the caller looked is never replayed unseen.
   */
  readonly eventIds?: readonly string[];
}

export interface ParkedMessage {
  readonly event: RecordedEvent;
  /** The reason given to `nack('park', reason)`, or why the store parked it. */
  readonly reason: string | undefined;
  /** Set when a later message of its ordering key passed it (`supersedeParkedWith`): it no longer blocks. */
  readonly supersededBy?: { readonly eventId: string; readonly eventType: string } | undefined;
}

/** Why the first unsettled message of an ordering key holds the others back. */
export type BlockingState = 'queued' | 'in_flight' | 'retry_scheduled' | 'parked';

/** A message waiting behind an earlier one of its ordering key. */
export interface BlockedMessage {
  readonly event: RecordedEvent;
  readonly orderingKey: string;
  readonly blockedBy: {
    readonly eventId: string;
    readonly eventType: string;
    readonly state: BlockingState;
    /** For `retry_scheduled`: when it may be delivered again. */
    readonly notBefore?: Date | undefined;
  };
}
