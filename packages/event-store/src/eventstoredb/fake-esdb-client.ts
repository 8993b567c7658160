// A stand-in for the part of EventStoreDBClient the adapter uses (esdb-client.ts),
// for unit tests: streams in memory, and persistent subscriptions whose
// messages a test hands in and whose acks and nacks it reads back. A group
// created through the fake is served as the server would (fake-group-dispatch.ts):
// appended events that match its filter go to its connections by its strategy.
import type {
  EventData,
  Filter,
  PersistentAction,
  PersistentSubscriptionToAllSettings,
  Position,
  ReadAllOptions,
  RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  BACKWARDS,
  PersistentSubscriptionDoesNotExistError,
  START,
  persistentSubscriptionToAllSettingsFromDefaults,
} from '@eventstore/db-client';
import { deliveryQueue } from './delivery-queue.js';
import type { EsdbClient, EsdbGroupSubscription, EsdbResolved } from './esdb-client.js';
import { fakeGroupDispatch, type FakeGroupDispatch } from './fake-group-dispatch.js';

export type Settlement =
  | { readonly kind: 'ack'; readonly eventId: string | undefined }
  | {
      readonly kind: PersistentAction;
      readonly eventId: string | undefined;
      readonly reason: string;
    };

export interface FakeGroupSubscription extends EsdbGroupSubscription {
  /** Sends a message, as the server would, to this connection. */
  send(resolved: EsdbResolved): void;
  readonly settlements: Settlement[];
}

function fakeGroupSubscription(log: string[], name: string): FakeGroupSubscription {
  const queue = deliveryQueue<EsdbResolved>();
  const settlements: Settlement[] = [];
  return {
    send: (resolved) => queue.push(resolved),
    settlements,
    ack: (resolved) => {
      settlements.push({ kind: 'ack', eventId: resolved.event?.id });
      log.push(`${name}: ack`);
      return Promise.resolve();
    },
    nack: (action, reason, resolved) => {
      settlements.push({ kind: action, eventId: resolved.event?.id, reason });
      log.push(`${name}: ${action}`);
      return Promise.resolve();
    },
    unsubscribe: () => {
      queue.end();
      return Promise.resolve();
    },
    async *[Symbol.asyncIterator]() {
      for (let next = await queue.take(); next !== undefined; next = await queue.take()) yield next;
    },
  };
}

/** An event as EventStoreDB would return it; override what a test needs. */
export function esdbEvent(overrides: Partial<EsdbRecordedEvent> = {}): EsdbRecordedEvent {
  return {
    streamId: 'order-1',
    id: crypto.randomUUID(),
    type: 'OrderPlaced',
    revision: 0n,
    isJson: true,
    data: { total: 30 },
    metadata: { correlationId: 'order-1' },
    created: new Date('2026-12-01T00:00:00Z'),
    position: { commit: 1n, prepare: 1n },
    ...overrides,
  } as EsdbRecordedEvent;
}

/** $all in the fake: every stream's events in position order, paged as the server pages them. */
function readAllOf(streams: ReadonlyMap<string, EsdbRecordedEvent[]>, options: ReadAllOptions) {
  const position = (event: EsdbRecordedEvent) => event.position?.commit ?? 0n;
  let events = [...streams.values()].flat().sort((a, b) => Number(position(a) - position(b)));
  const backwards = options.direction === BACKWARDS;
  if (backwards) events.reverse();
  const from = options.fromPosition;
  if (typeof from === 'object') {
    // Inclusive, as the server is.
    events = events.filter((event) =>
      backwards ? position(event) <= from.commit : position(event) >= from.commit,
    );
  }
  return events.slice(0, Number(options.maxCount ?? events.length));
}

/** Whether a server-side $all filter lets `event` into a group. */
function passes(filter: Filter, event: EsdbRecordedEvent): boolean {
  const value = filter.filterOn === 'streamName' ? event.streamId : event.type;
  if ('prefixes' in filter) return filter.prefixes.some((prefix) => value.startsWith(prefix));
  return new RegExp(filter.regex).test(value);
}

/** The groups created through the fake, served as the server would. */
function servedGroups() {
  const groups = new Map<
    string,
    { settings: PersistentSubscriptionToAllSettings; filter: Filter; dispatch: FakeGroupDispatch }
  >();
  return {
    get: (group: string) => groups.get(group),
    create(
      group: string,
      settings: PersistentSubscriptionToAllSettings,
      filter: Filter,
      existing: EsdbRecordedEvent[],
    ) {
      const dispatch = fakeGroupDispatch({
        strategy: settings.consumerStrategyName,
        messageTimeoutMs: settings.messageTimeout,
      });
      groups.set(group, { settings, filter, dispatch });
      if (settings.startFrom === START)
        for (const event of existing) if (passes(filter, event)) dispatch.publish(event);
    },
    update(group: string, settings: PersistentSubscriptionToAllSettings) {
      const served = groups.get(group);
      if (served === undefined) return;
      groups.set(group, { ...served, settings });
      served.dispatch.setStrategy(settings.consumerStrategyName);
    },
    publish(event: EsdbRecordedEvent) {
      for (const { filter, dispatch } of groups.values())
        if (passes(filter, event)) dispatch.publish(event);
    },
  };
}

export function fakeEsdbClient(
  input: {
    serverVersion?: string;
    groupSettings?: Partial<PersistentSubscriptionToAllSettings>;
    /** Whether getPersistentSubscriptionToAllInfo finds the group; true by default. */
    groupExists?: boolean;
  } = {},
) {
  const streams = new Map<string, EsdbRecordedEvent[]>();
  /** Parked streams: the event each entry links to, and the entry's revision. */
  const links = new Map<string, { event: EsdbRecordedEvent; revision: bigint }[]>();
  /** Every append and settlement in order, e.g. "append eo-retry-g", "group: ack". */
  const log: string[] = [];
  const group = fakeGroupSubscription(log, 'group');
  const retries = fakeGroupSubscription(log, 'retries');
  let settings = persistentSubscriptionToAllSettingsFromDefaults(input.groupSettings);
  const calls: string[] = [];
  /** The settings of each group created on $all, in order. */
  const created: { group: string; settings: PersistentSubscriptionToAllSettings }[] = [];
  /** The settings each update of a group on $all sent, in order. */
  const updated: PersistentSubscriptionToAllSettings[] = [];
  let lastPosition = 0n;
  const served = servedGroups();

  /** Appends as the server would: the next revision of the stream, the next position of $all. */
  const append = (stream: string, event: EventData, recordedAt?: Date) => {
    const events = streams.get(stream) ?? [];
    lastPosition += 1n;
    const recorded = esdbEvent({
      streamId: stream,
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      revision: BigInt(events.length),
      position: { commit: lastPosition, prepare: lastPosition },
      ...(recordedAt === undefined ? {} : { created: recordedAt }),
    } as Partial<EsdbRecordedEvent>);
    streams.set(stream, [...events, recorded]);
    served.publish(recorded);
    return recorded;
  };

  /** Parks `event` in `parkedStream` as the server does: a link, at the stream's next revision. */
  const park = (parkedStream: string, event: EsdbRecordedEvent, revision?: bigint) => {
    const entries = links.get(parkedStream) ?? [];
    links.set(parkedStream, [...entries, { event, revision: revision ?? BigInt(entries.length) }]);
  };

  const client: EsdbClient & {
    capabilities: Promise<{ serverVersion: string }>;
    dispose(): Promise<void>;
  } = {
    capabilities: Promise.resolve({ serverVersion: input.serverVersion ?? '24.10.0.0' }),
    appendToStream: (stream, events) => {
      for (const event of Array.isArray(events) ? events : [events]) append(stream, event);
      log.push(`append ${stream}`);
      const revision = BigInt((streams.get(stream)?.length ?? 1) - 1);
      return Promise.resolve({ success: true, nextExpectedRevision: revision });
    },
    async *readStream(stream, options = {}) {
      const parked = links.get(stream);
      if (parked !== undefined) {
        for (const entry of parked) {
          await Promise.resolve();
          yield { event: entry.event, link: { revision: entry.revision } };
        }
        return;
      }
      let events = [...(streams.get(stream) ?? [])];
      if (options.direction === 'backwards') events.reverse();
      else if (typeof options.fromRevision === 'bigint') {
        const from = options.fromRevision;
        events = events.filter((event) => event.revision >= from);
      }
      for (const event of events.slice(0, Number(options.maxCount ?? events.length))) {
        await Promise.resolve();
        yield { event };
      }
    },
    async *readAll(options = {}) {
      for (const event of readAllOf(streams, options)) {
        await Promise.resolve();
        yield { event: event as EsdbRecordedEvent & { position: Position } };
      }
    },
    getPersistentSubscriptionToAllInfo: (groupName) =>
      input.groupExists === false && served.get(groupName) === undefined
        ? Promise.reject(
            new PersistentSubscriptionDoesNotExistError(undefined, {
              streamName: '$all',
              groupName,
            }),
          )
        : Promise.resolve({ settings: served.get(groupName)?.settings ?? settings } as Awaited<
            ReturnType<EsdbClient['getPersistentSubscriptionToAllInfo']>
          >),
    createPersistentSubscriptionToAll: (groupName, groupSettings, { filter }) => {
      calls.push('createPersistentSubscriptionToAll');
      created.push({ group: groupName, settings: groupSettings });
      served.create(groupName, groupSettings, filter, readAllOf(streams, {}));
      return Promise.resolve();
    },
    updatePersistentSubscriptionToAll: (groupName, next) => {
      calls.push('updatePersistentSubscriptionToAll');
      updated.push(next);
      settings = next;
      served.update(groupName, next);
      return Promise.resolve();
    },
    createPersistentSubscriptionToStream: (stream) => {
      calls.push(`createPersistentSubscriptionToStream ${stream}`);
      return Promise.resolve();
    },
    deletePersistentSubscriptionToStream: () => Promise.resolve(),
    replayParkedMessagesToAll: (_group, options) => {
      calls.push(`replayParkedMessagesToAll stopAt=${String(options?.stopAt ?? 'none')}`);
      return Promise.resolve();
    },
    replayParkedMessagesToStream: (stream, _group, options) => {
      calls.push(
        `replayParkedMessagesToStream ${stream} stopAt=${String(options?.stopAt ?? 'none')}`,
      );
      return Promise.resolve();
    },
    subscribeToPersistentSubscriptionToAll: (groupName, { bufferSize }) =>
      served.get(groupName)?.dispatch.connect(bufferSize) ?? group,
    // A served group's retry stream stays empty: the multi-consumer tests never retry.
    subscribeToPersistentSubscriptionToStream: (_stream, groupName) =>
      served.get(groupName) === undefined ? retries : fakeGroupSubscription([], 'retries'),
    dispose: () => Promise.resolve(),
  };
  return { client, streams, log, calls, created, updated, group, retries, append, park };
}
