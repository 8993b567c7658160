// The part of @eventstore/db-client's EventStoreDBClient that persistent
// subscriptions and group administration use, narrowed so unit tests can
// stand in a fake for it.
import type {
  AppendResult,
  AppendToStreamOptions,
  EventData,
  Filter,
  PersistentAction,
  PersistentSubscriptionToAllInfo,
  PersistentSubscriptionToAllSettings,
  PersistentSubscriptionToStreamSettings,
  Position,
  ReadAllOptions,
  RecordedEvent as EsdbRecordedEvent,
  ReadStreamOptions,
} from '@eventstore/db-client';

/** One message of a persistent subscription: with resolveLinkTos off, `event` is the event itself. */
export interface EsdbResolved {
  readonly event?: EsdbRecordedEvent;
  readonly retryCount: number;
}

export interface EsdbGroupSubscription extends AsyncIterable<EsdbResolved> {
  ack(resolved: EsdbResolved): Promise<void>;
  nack(action: PersistentAction, reason: string, resolved: EsdbResolved): Promise<void>;
  unsubscribe(): Promise<void>;
}

export interface EsdbClient {
  appendToStream(
    streamName: string,
    events: EventData | EventData[],
    options?: AppendToStreamOptions,
  ): Promise<AppendResult>;
  readStream(
    streamName: string,
    options?: ReadStreamOptions,
  ): AsyncIterable<{
    event?: EsdbRecordedEvent | undefined;
    /** With resolveLinkTos: the link itself, whose revision is its place in the linking stream. */
    link?: { readonly revision: bigint } | undefined;
  }>;
  /** Only what finding a position by time needs of each event. */
  readAll(
    options?: ReadAllOptions,
  ): AsyncIterable<{ event?: { readonly position: Position; readonly created: Date } | undefined }>;
  getPersistentSubscriptionToAllInfo(group: string): Promise<PersistentSubscriptionToAllInfo>;
  createPersistentSubscriptionToAll(
    group: string,
    settings: PersistentSubscriptionToAllSettings,
    options: { filter: Filter },
  ): Promise<void>;
  updatePersistentSubscriptionToAll(
    group: string,
    settings: PersistentSubscriptionToAllSettings,
  ): Promise<void>;
  createPersistentSubscriptionToStream(
    streamName: string,
    group: string,
    settings: PersistentSubscriptionToStreamSettings,
  ): Promise<void>;
  deletePersistentSubscriptionToStream(streamName: string, group: string): Promise<void>;
  /** `stopAt`: the parked stream's revision to stop before; all parked messages when absent. */
  replayParkedMessagesToAll(group: string, options?: { stopAt?: bigint }): Promise<void>;
  replayParkedMessagesToStream(
    streamName: string,
    group: string,
    options?: { stopAt?: bigint },
  ): Promise<void>;
  subscribeToPersistentSubscriptionToAll(
    group: string,
    options: { bufferSize: number },
  ): EsdbGroupSubscription;
  subscribeToPersistentSubscriptionToStream(
    streamName: string,
    group: string,
    options: { bufferSize: number },
  ): EsdbGroupSubscription;
}
