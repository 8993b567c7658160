// The event store through its port, so the audit reads EventStoreDB or the
// embedded store alike: every event once, page by page, and each consumer
// group's parked messages.
import { CONSUMERS } from '@effectively-once/contracts';
import {
  EventStoreError,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
} from '@effectively-once/event-store';
import type { ParkedFact } from './facts.types.js';

const PAGE = 1000;

/**
 * @example
 * const events = await readEveryEvent(store); // global order, oldest first
 */
export async function readEveryEvent(store: EventStore, pageSize = PAGE): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let after: GlobalPosition | undefined;
  for (;;) {
    const page = await store.readAll({
      maxCount: pageSize,
      ...(after === undefined ? {} : { after }),
    });
    events.push(...page);
    const last = page.at(-1);
    if (last === undefined || page.length < pageSize) return events;
    after = last.position;
  }
}

/**
 * The parked messages of every consumer group; a group that does not exist
 * yet (its service never started) has none.
 *
 * @example
 * const parked = await loadParked(store);
 */
export async function loadParked(
  store: EventStore,
  groups: readonly string[] = Object.values(CONSUMERS),
): Promise<ParkedFact[]> {
  const lists = await Promise.all(
    groups.map(async (group) => {
      try {
        const parked = await store.listParkedMessages(group);
        return parked.map(({ event, reason }) => ({
          group,
          messageId: event.id,
          type: event.type,
          orderId: event.metadata.correlationId,
          reason,
        }));
      } catch (error) {
        if (error instanceof EventStoreError && error.code === 'SUBSCRIPTION_GROUP_NOT_FOUND')
          return [];
        throw error;
      }
    }),
  );
  return lists.flat();
}
