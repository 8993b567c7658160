// Translations between the port and @eventstore/db-client, nothing else.
import {
  DISPATCH_TO_SINGLE,
  END,
  PINNED,
  ROUND_ROBIN,
  START,
  eventTypeFilter,
  excludeSystemEvents,
  persistentSubscriptionToAllSettingsFromDefaults,
  streamNameFilter,
  type Filter,
  type PersistentSubscriptionToAllSettings,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { parseRecordedEvent, type RecordedEvent } from '../port/envelope.js';
import {
  isTimeStart,
  type ConsumerStrategy,
  type OrderingKey,
  type StartFrom,
  type SubscriptionFilter,
  type SubscriptionGroupChanges,
  type SubscriptionGroupSettings,
} from '../port/subscription.js';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The port's filter as a server-side $all filter. System events are never wanted. */
export function toEsdbFilter(filter: SubscriptionFilter | undefined): Filter {
  if (filter === undefined || filter.kind === 'all') return excludeSystemEvents();
  if (filter.kind === 'stream_prefix') return streamNameFilter({ prefixes: [...filter.prefixes] });
  // eventTypeFilter matches prefixes; exact types need an anchored regex.
  return eventTypeFilter({ regex: `^(?:${filter.types.map(escapeRegex).join('|')})$` });
}

/** The same filter on the client side, for reads of $all (which take no server filter). */
export function matchesFilter(
  filter: SubscriptionFilter | undefined,
  event: RecordedEvent,
): boolean {
  if (event.type.startsWith('$') || event.streamName.startsWith('$')) return false;
  if (filter === undefined || filter.kind === 'all') return true;
  if (filter.kind === 'stream_prefix')
    return filter.prefixes.some((prefix) => event.streamName.startsWith(prefix));
  return filter.types.includes(event.type);
}

/**
 * The server's consumer strategy for a group: an explicit `dispatch_to_single`
 * stays so; otherwise the ordering key decides, so that the server keeps each
 * key on one connection and the connection's ordering gate can order it:
 *
 * | ordering key                      | strategy wanted       | sent                  |
 * | --------------------------------- | --------------------- | --------------------- |
 * | by stream                         | `Pinned`              | `Pinned`              |
 * | by correlation id (metadata)      | `PinnedByCorrelation` | `Pinned` (see below)  |
 * | another field, or none            | `RoundRobin`          | `RoundRobin`          |
 *
 * `PinnedByCorrelation` cannot be sent: @eventstore/db-client 6.2.1 (and
 * @kurrent/kurrentdb-client 1.x) encodes only DispatchToSingle, RoundRobin and
 * Pinned, and for any other name sets no strategy, leaving the enum at 0,
 * which is DispatchToSingle in the protocol. The server also hashes
 * `$correlationId`, not this repository's `correlationId`. `Pinned` is the
 * nearest it can carry: the saga's messages of one order live in its stream.
 * See docs/event-store.md, "Consumer strategies".
 */
export function toEsdbStrategy(group: {
  readonly consumerStrategy: ConsumerStrategy;
  readonly orderingKey?: OrderingKey | undefined;
}): EsdbConsumerStrategyName {
  if (group.consumerStrategy === 'dispatch_to_single') return DISPATCH_TO_SINGLE;
  const source = group.orderingKey?.source;
  if (source === undefined) return ROUND_ROBIN;
  if (source.from === 'stream') return PINNED;
  return source.from === 'metadata' && source.field === CORRELATION_FIELD ? PINNED : ROUND_ROBIN;
}

/** The names this client can send (see `toEsdbStrategy`). */
export type EsdbConsumerStrategyName =
  typeof DISPATCH_TO_SINGLE | typeof ROUND_ROBIN | typeof PINNED;

/** The metadata field that names a message's correlation here (EventStoreDB's is `$correlationId`). */
const CORRELATION_FIELD = 'correlationId';

/** The port's strategy of a group as the server has it (Pinned is the port's round_robin). */
export function fromEsdbStrategy(name: string): ConsumerStrategy {
  return name === DISPATCH_TO_SINGLE ? 'dispatch_to_single' : 'round_robin';
}

function toEsdbStart(startFrom: StartFrom): PersistentSubscriptionToAllSettings['startFrom'] {
  if (startFrom === 'start') return START;
  if (startFrom === 'end') return END;
  // createEsdbGroup finds the position of a time first: the server takes none.
  if (isTimeStart(startFrom))
    throw new Error('A start at a time must be found as a position first.');
  return { commit: startFrom.commit, prepare: startFrom.prepare };
}

/** A new group's settings. `maxInFlight` is not among them: EventStoreDB takes it per connection. */
export function toEsdbSettings(
  settings: SubscriptionGroupSettings,
): PersistentSubscriptionToAllSettings {
  return persistentSubscriptionToAllSettingsFromDefaults({
    startFrom: toEsdbStart(settings.startFrom),
    maxRetryCount: settings.maxRetryCount,
    messageTimeout: settings.messageTimeoutMs,
    consumerStrategyName: toEsdbStrategy(settings),
  });
}

/**
 * An update: EventStoreDB replaces all settings, so the current ones are the
 * base. The strategy follows the group's ordering key as it will be after the
 * update (`orderingKey`), and the port's strategy as changed or as it was.
 */
export function applyEsdbChanges(
  current: PersistentSubscriptionToAllSettings,
  changes: SubscriptionGroupChanges,
  orderingKey: OrderingKey | undefined,
): PersistentSubscriptionToAllSettings {
  const consumerStrategy =
    changes.consumerStrategy ?? fromEsdbStrategy(current.consumerStrategyName);
  return {
    ...current,
    ...(changes.maxRetryCount === undefined ? {} : { maxRetryCount: changes.maxRetryCount }),
    ...(changes.messageTimeoutMs === undefined ? {} : { messageTimeout: changes.messageTimeoutMs }),
    consumerStrategyName: toEsdbStrategy({ consumerStrategy, orderingKey }),
  };
}

/**
 * Whether an update would change anything. Servers before 22.10 clear a
 * group's $all filter on every update, so an update that changes nothing is
 * not sent at all.
 */
export function esdbSettingsDiffer(
  current: PersistentSubscriptionToAllSettings,
  next: PersistentSubscriptionToAllSettings,
): boolean {
  return (
    current.maxRetryCount !== next.maxRetryCount ||
    current.messageTimeout !== next.messageTimeout ||
    current.consumerStrategyName !== next.consumerStrategyName
  );
}

/** An EventStoreDB event as the port's envelope; non-JSON events are refused here. */
export function fromEsdbEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.isJson) {
    throw new Error(
      `Event ${event.id} in "${event.streamId}" is binary; this port stores JSON events only.`,
    );
  }
  return parseRecordedEvent({
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata ?? {},
    streamName: event.streamId,
    revision: event.revision,
    position: event.position ?? { commit: 0n, prepare: 0n },
    createdAt: event.created,
  });
}
