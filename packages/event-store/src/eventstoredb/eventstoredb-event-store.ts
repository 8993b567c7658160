// The port on EventStoreDB, kept thin: validation is the port's, semantics are
// the server's, and the differences are listed in docs/event-store.md.
import { EventStoreDBClient, jsonEvent, type JSONType } from '@eventstore/db-client';
import { subscriptionRegistry } from '../port/subscription-registry.js';
import type { EventStore } from '../port/event-store.js';
import { parseExpectedRevision } from '../port/expected-revision.js';
import { assertGroupName, parseGroupChanges, parseGroupSettings } from '../port/subscription.js';
import { DEFAULT_MAX_EVENT_BYTES, validateAppend } from '../port/validate-append.js';
import { subscribeToEsdbCatchUp } from './catch-up-subscription.js';
import { mapErrors } from './errors.js';
import { applyEsdbChanges, toEsdbFilter, toEsdbSettings } from './mapping.js';
import { subscribeToEsdbGroup } from './persistent-subscription.js';
import { readEsdbAll, readEsdbStream, readParkedStream } from './reads.js';

export interface EventStoreDBEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false` */
  connectionString: string;
  maxEventBytes?: number;
}

/**
 * @example
 * const store = createEventStoreDBEventStore({ connectionString: 'esdb://localhost:2113?tls=false' });
 */
export function createEventStoreDBEventStore(options: EventStoreDBEventStoreOptions): EventStore {
  const client = EventStoreDBClient.connectionString(options.connectionString);
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const subscriptions = subscriptionRegistry();
  return {
    backend: 'eventstoredb',
    appendToStream: (streamName, events, { expectedRevision }) =>
      mapErrors(async () => {
        const expected = parseExpectedRevision(expectedRevision);
        const valid = validateAppend(streamName, events, maxEventBytes);
        const result = await client.appendToStream(
          streamName,
          valid.map((event) =>
            jsonEvent({
              id: event.id,
              type: event.type,
              data: event.data as JSONType,
              metadata: event.metadata,
            }),
          ),
          { expectedRevision: expected },
        );
        return {
          nextExpectedRevision: result.nextExpectedRevision,
          position: result.position ?? { commit: 0n, prepare: 0n },
        };
      }),
    readStream: (name, readOptions) => mapErrors(() => readEsdbStream(client, name, readOptions)),
    readAll: (readOptions) => mapErrors(() => readEsdbAll(client, readOptions)),
    subscribeToAll: (subscribeOptions = {}) =>
      subscriptions.track(
        subscribeToEsdbCatchUp(
          client,
          subscribeOptions.after,
          toEsdbFilter(subscribeOptions.filter),
        ),
      ),
    createSubscriptionGroup: (group, settings) =>
      mapErrors(async () => {
        assertGroupName(group);
        const parsed = parseGroupSettings(settings);
        await client.createPersistentSubscriptionToAll(group, toEsdbSettings(parsed), {
          filter: toEsdbFilter(parsed.filter),
        });
      }),
    updateSubscriptionGroup: (group, changes) =>
      mapErrors(async () => {
        assertGroupName(group);
        const parsed = parseGroupChanges(changes);
        const { settings } = await client.getPersistentSubscriptionToAllInfo(group);
        await client.updatePersistentSubscriptionToAll(group, applyEsdbChanges(settings, parsed));
      }),
    deleteSubscriptionGroup: (group) =>
      mapErrors(async () => {
        assertGroupName(group);
        await client.deletePersistentSubscriptionToAll(group);
      }),
    subscribeToGroup: (group, subscribeOptions = {}) => {
      assertGroupName(group);
      return subscriptions.track(subscribeToEsdbGroup(client, group, subscribeOptions.maxInFlight));
    },
    listParkedMessages: (group) =>
      mapErrors(async () => {
        assertGroupName(group);
        // Parked messages are links in this system stream; resolving them gives the original events.
        const parked = await readParkedStream(
          client,
          `$persistentsubscription-$all::${group}-parked`,
        );
        return parked.map((event) => ({ event, reason: undefined }));
      }),
    replayParkedMessages: (group) =>
      mapErrors(async () => {
        assertGroupName(group);
        await client.replayParkedMessagesToAll(group);
      }),
    // Interim: the EventStoreDB adapter's ordering keys are being written (ADR 0009).
    listBlockedMessages: (group) =>
      mapErrors(() => {
        assertGroupName(group);
        return Promise.resolve([]);
      }),
    close: async () => {
      await subscriptions.closeAll();
      await client.dispose();
    },
  };
}
