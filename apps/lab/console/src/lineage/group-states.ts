// The event store's view of every consumer group: the messages it parked and
// those waiting behind an earlier one of their ordering key. Read for the
// lineage and the stuck view; a group its service never created has neither.
import {
  EventStoreError,
  type BlockedMessage,
  type EventStore,
  type ParkedMessage,
} from '@effectively-once/event-store';

export interface ParkedEntry {
  readonly consumer: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly orderId: string | null;
  readonly reason: string | null;
  readonly supersededBy: { readonly eventId: string; readonly eventType: string } | null;
}

export interface BlockedEntry {
  readonly consumer: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly orderId: string | null;
  readonly blockedBy: {
    readonly eventId: string;
    readonly eventType: string;
    readonly state: BlockedMessage['blockedBy']['state'];
  };
}

export interface GroupStates {
  readonly parked: readonly ParkedEntry[];
  readonly blocked: readonly BlockedEntry[];
}

async function orNothing<T>(read: Promise<T[]>): Promise<T[]> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof EventStoreError && error.code === 'SUBSCRIPTION_GROUP_NOT_FOUND')
      return [];
    throw error;
  }
}

function toParked(consumer: string, message: ParkedMessage): ParkedEntry {
  return {
    consumer,
    eventId: message.event.id,
    eventType: message.event.type,
    orderId: message.event.metadata.correlationId ?? null,
    reason: message.reason ?? null,
    supersededBy: message.supersededBy ?? null,
  };
}

function toBlocked(consumer: string, message: BlockedMessage): BlockedEntry {
  return {
    consumer,
    eventId: message.event.id,
    eventType: message.event.type,
    orderId: message.event.metadata.correlationId ?? null,
    blockedBy: {
      eventId: message.blockedBy.eventId,
      eventType: message.blockedBy.eventType,
      state: message.blockedBy.state,
    },
  };
}

/**
 * @example
 * const { parked, blocked } = await readGroupStates(store, Object.values(CONSUMERS));
 */
export async function readGroupStates(
  store: Pick<EventStore, 'listParkedMessages' | 'listBlockedMessages'>,
  consumers: readonly string[],
): Promise<GroupStates> {
  const perGroup = await Promise.all(
    consumers.map(async (consumer) => {
      const [parked, blocked] = await Promise.all([
        orNothing(store.listParkedMessages(consumer)),
        orNothing(store.listBlockedMessages(consumer)),
      ]);
      return {
        parked: parked.map((message) => toParked(consumer, message)),
        blocked: blocked.map((message) => toBlocked(consumer, message)),
      };
    }),
  );
  return {
    parked: perGroup.flatMap((group) => group.parked),
    blocked: perGroup.flatMap((group) => group.blocked),
  };
}
