// Translations between the port and @eventstore/db-client, nothing else.
import {
  DISPATCH_TO_SINGLE,
  END,
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

export function toEsdbStrategy(strategy: ConsumerStrategy): string {
  return strategy === 'dispatch_to_single' ? DISPATCH_TO_SINGLE : ROUND_ROBIN;
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
    consumerStrategyName: toEsdbStrategy(settings.consumerStrategy),
  });
}

/** An update: EventStoreDB replaces all settings, so the current ones are the base. */
export function applyEsdbChanges(
  current: PersistentSubscriptionToAllSettings,
  changes: SubscriptionGroupChanges,
): PersistentSubscriptionToAllSettings {
  return {
    ...current,
    ...(changes.maxRetryCount === undefined ? {} : { maxRetryCount: changes.maxRetryCount }),
    ...(changes.messageTimeoutMs === undefined ? {} : { messageTimeout: changes.messageTimeoutMs }),
    ...(changes.consumerStrategy === undefined
      ? {}
      : { consumerStrategyName: toEsdbStrategy(changes.consumerStrategy) }),
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
