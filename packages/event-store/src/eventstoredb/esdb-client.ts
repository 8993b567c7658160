// The part of @eventstore/db-client's EventStoreDBClient that persistent
// subscriptions use, narrowed so unit tests can stand in a fake for it.
import type {
  AppendResult,
  AppendToStreamOptions,
  EventData,
  PersistentAction,
  PersistentSubscriptionToAllInfo,
  PersistentSubscriptionToAllSettings,
  PersistentSubscriptionToStreamSettings,
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
  ): AsyncIterable<{ event?: EsdbRecordedEvent | undefined }>;
  getPersistentSubscriptionToAllInfo(group: string): Promise<PersistentSubscriptionToAllInfo>;
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
  replayParkedMessagesToStream(streamName: string, group: string): Promise<void>;
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
