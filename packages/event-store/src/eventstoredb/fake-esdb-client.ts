// A stand-in for the part of EventStoreDBClient the adapter uses (esdb-client.ts),
// for unit tests: streams in memory, and persistent subscriptions whose
// messages a test hands in and whose acks and nacks it reads back.
import type {
  EventData,
  PersistentAction,
  PersistentSubscriptionToAllSettings,
  RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import { persistentSubscriptionToAllSettingsFromDefaults } from '@eventstore/db-client';
import { deliveryQueue } from './delivery-queue.js';
import type { EsdbClient, EsdbGroupSubscription, EsdbResolved } from './esdb-client.js';

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

export function fakeEsdbClient(
  input: {
    serverVersion?: string;
    groupSettings?: Partial<PersistentSubscriptionToAllSettings>;
  } = {},
) {
  const streams = new Map<string, EsdbRecordedEvent[]>();
  /** Every append and settlement in order, e.g. "append eo-retry-g", "group: ack". */
  const log: string[] = [];
  const group = fakeGroupSubscription(log, 'group');
  const retries = fakeGroupSubscription(log, 'retries');
  let settings = persistentSubscriptionToAllSettingsFromDefaults(input.groupSettings);
  const calls: string[] = [];

  const append = (stream: string, event: EventData) => {
    const events = streams.get(stream) ?? [];
    const recorded = esdbEvent({
      streamId: stream,
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      revision: BigInt(events.length),
    } as Partial<EsdbRecordedEvent>);
    streams.set(stream, [...events, recorded]);
    return recorded;
  };

  const client: EsdbClient & { capabilities: Promise<{ serverVersion: string }> } = {
    capabilities: Promise.resolve({ serverVersion: input.serverVersion ?? '24.10.0.0' }),
    appendToStream: (stream, events) => {
      for (const event of Array.isArray(events) ? events : [events]) append(stream, event);
      log.push(`append ${stream}`);
      const revision = BigInt((streams.get(stream)?.length ?? 1) - 1);
      return Promise.resolve({ success: true, nextExpectedRevision: revision });
    },
    async *readStream(stream, options = {}) {
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
    getPersistentSubscriptionToAllInfo: () =>
      Promise.resolve({ settings } as Awaited<
        ReturnType<EsdbClient['getPersistentSubscriptionToAllInfo']>
      >),
    updatePersistentSubscriptionToAll: (_group, next) => {
      calls.push('updatePersistentSubscriptionToAll');
      settings = next;
      return Promise.resolve();
    },
    createPersistentSubscriptionToStream: (stream) => {
      calls.push(`createPersistentSubscriptionToStream ${stream}`);
      return Promise.resolve();
    },
    deletePersistentSubscriptionToStream: () => Promise.resolve(),
    replayParkedMessagesToStream: () => Promise.resolve(),
    subscribeToPersistentSubscriptionToAll: () => group,
    subscribeToPersistentSubscriptionToStream: () => retries,
  };
  return { client, streams, log, calls, group, retries, append };
}
