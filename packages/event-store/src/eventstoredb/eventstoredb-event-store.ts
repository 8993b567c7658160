// The port on EventStoreDB, kept thin: validation is the port's, semantics are
// the server's, and what the server lacks (retries that wait, ordering keys)
// is the adapter's, per ADR 0009; the differences are listed in docs/event-store.md.
import { EventStoreDBClient, jsonEvent, type JSONType } from '@eventstore/db-client';
import { appendEachInTurn } from '../port/append-each-in-turn.js';
import { subscriptionRegistry } from '../port/subscription-registry.js';
import type { EventStore } from '../port/event-store.js';
import { parseExpectedRevision } from '../port/expected-revision.js';
import { parseReadInterval } from '../port/read-interval.js';
import { assertGroupName, parseGroupChanges, parseGroupSettings } from '../port/subscription.js';
import { DEFAULT_MAX_EVENT_BYTES, validateAppend } from '../port/validate-append.js';
import { subscribeToEsdbCatchUp } from './catch-up-subscription.js';
import { mapErrors } from './errors.js';
import { createEsdbGroup, deleteEsdbGroup, updateEsdbGroup } from './groups.js';
import { toEsdbFilter } from './mapping.js';
import type { OrderingGate } from './ordering-gate.js';
import { listEsdbParked, replayEsdbParked } from './parked.js';
import { subscribeToEsdbGroup } from './persistent-subscription.js';
import { readEsdbAll, readEsdbStream } from './reads.js';
import { serverVersionCheck, type ServerFeaturesSource } from './server-version.js';

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
  return eventStoreDBEventStoreOn(
    EventStoreDBClient.connectionString(options.connectionString),
    options,
  );
}

/** The open connections' ordering gates, by group: what listBlockedMessages can see. */
function gateRegistry() {
  const byGroup = new Map<string, Set<OrderingGate>>();
  return {
    of: (group: string) => ({
      add: (gate: OrderingGate) => byGroup.set(group, (byGroup.get(group) ?? new Set()).add(gate)),
      delete: (gate: OrderingGate) => byGroup.get(group)?.delete(gate),
    }),
    blocked: (group: string) => [...(byGroup.get(group) ?? [])].flatMap((gate) => gate.blocked()),
  };
}

/**
 * The store on a given client (unit tests pass a fake). Every call first
 * checks, once, that the server is at least MIN_SERVER_VERSION.
 */
export function eventStoreDBEventStoreOn(
  client: EventStoreDBClient,
  options: { maxEventBytes?: number | undefined } = {},
): EventStore {
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const subscriptions = subscriptionRegistry();
  const gates = gateRegistry();
  // `capabilities` is protected in the client's types: it is how the client itself learns the version.
  const ready = serverVersionCheck(client as unknown as ServerFeaturesSource);
  const appendToStream: EventStore['appendToStream'] = (streamName, events, { expectedRevision }) =>
    mapErrors(async () => {
      const expected = parseExpectedRevision(expectedRevision);
      const valid = validateAppend(streamName, events, maxEventBytes);
      await ready();
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
    });
  return {
    backend: 'eventstoredb',
    appendToStream,
    // EventStoreDB appends to one stream per call: one after another, each decided as alone.
    appendToStreams: (appends) => appendEachInTurn(appendToStream, appends),
    readStream: (name, readOptions) =>
      mapErrors(async () => {
        await ready();
        return readEsdbStream(client, name, readOptions);
      }),
    readAll: (readOptions) =>
      mapErrors(async () => {
        await ready();
        return readEsdbAll(client, readOptions);
      }),
    subscribeToAll: (subscribeOptions = {}) => {
      // Checked so a bad value fails on both back ends; the server pushes, so there is nothing to space.
      parseReadInterval(subscribeOptions.readIntervalMs);
      return subscriptions.track(
        subscribeToEsdbCatchUp(
          client,
          subscribeOptions.after,
          toEsdbFilter(subscribeOptions.filter),
          ready,
        ),
      );
    },
    createSubscriptionGroup: (group, settings) =>
      mapErrors(async () => {
        assertGroupName(group);
        const parsed = parseGroupSettings(settings);
        await ready();
        await createEsdbGroup(client, group, parsed);
      }),
    updateSubscriptionGroup: (group, changes) =>
      mapErrors(async () => {
        assertGroupName(group);
        const parsed = parseGroupChanges(changes);
        await ready();
        await updateEsdbGroup(client, group, parsed);
      }),
    deleteSubscriptionGroup: (group) =>
      mapErrors(async () => {
        assertGroupName(group);
        await ready();
        await deleteEsdbGroup(client, group);
      }),
    subscribeToGroup: (group, subscribeOptions = {}) => {
      assertGroupName(group);
      return subscriptions.track(
        subscribeToEsdbGroup({
          client,
          group,
          maxInFlight: subscribeOptions.maxInFlight,
          ready,
          gates: gates.of(group),
        }),
      );
    },
    listParkedMessages: (group) =>
      mapErrors(async () => {
        assertGroupName(group);
        await ready();
        return listEsdbParked(client, group);
      }),
    replayParkedMessages: (group, replayOptions = {}) =>
      mapErrors(async () => {
        assertGroupName(group);
        await ready();
        await replayEsdbParked(client, group, replayOptions.eventIds);
      }),
    // What this store's open connections hold back; EventStoreDB itself knows no keys.
    listBlockedMessages: (group) =>
      mapErrors(() => {
        assertGroupName(group);
        return Promise.resolve(gates.blocked(group));
      }),
    close: async () => {
      await subscriptions.closeAll();
      await client.dispose();
    },
  };
}
