import {
  SubscriptionGroupError,
  type EventStore,
  type StartFrom,
  type SubscriptionGroupSettings,
} from '@effectively-once/event-store';

/**
 * Where a group created now starts: the start its settings give (a full
 * replay is asked for explicitly, with `'start'`), or else the consumer's
 * replay horizon. History older than the horizon may have lost its markers
 * to pruning, so a new group that handed it over would apply it a second time.
 *
 * @example
 * startOfNewGroup({ given: undefined, replayHorizonMs: 30 * DAY_MS, now: new Date() }); // { recordedAtOrAfter: 30 days ago }
 */
export function startOfNewGroup(input: {
  given: StartFrom | undefined;
  replayHorizonMs: number;
  now: Date;
}): StartFrom {
  return (
    input.given ?? { recordedAtOrAfter: new Date(input.now.getTime() - input.replayHorizonMs) }
  );
}

/**
 * Creates the consumer's group unless it exists, starting where its settings
 * say (see startOfNewGroup). An existing group takes the
 * given message timeout and retry count (CONSUMER_MESSAGE_TIMEOUT_MS and
 * CONSUMER_MAX_RETRY_COUNT) and ordering key, so a restart with new settings applies them, as
 * the failure lab's short lease needs. Its filter and start cannot change
 * after creation (as in EventStoreDB), so a new filter needs a new group name.
 *
 * The store's port cannot read a group's settings, so the two values are
 * written whenever the group exists; writing the values it already has
 * changes nothing on the embedded store. EventStoreDB, though, restarts a
 * persistent subscription on every update and drops its consumers, so
 * startConsumer updates once per start (`updateExisting`), not on every
 * reconnect: two processes would otherwise drop each other forever.
 *
 * @example
 * await ensureSubscriptionGroup({ store, group: 'inventory-demand-v1', settings: parseGroupSettings({ messageTimeoutMs: 3000 }) });
 */
export async function ensureSubscriptionGroup(input: {
  store: EventStore;
  group: string;
  settings: SubscriptionGroupSettings;
  /** Write the timeout and retry count into an existing group; true by default. */
  updateExisting?: boolean;
}): Promise<void> {
  const { store, group, settings } = input;
  try {
    await store.createSubscriptionGroup(group, settings);
    return;
  } catch (error) {
    if (!(error instanceof SubscriptionGroupError && error.code === 'SUBSCRIPTION_GROUP_EXISTS'))
      throw error;
  }
  if (input.updateExisting === false) return;
  await store.updateSubscriptionGroup(group, {
    messageTimeoutMs: settings.messageTimeoutMs,
    maxRetryCount: settings.maxRetryCount,
    // A group created before the consumer declared its key (or its removal) takes it now.
    orderingKey: settings.orderingKey ?? null,
  });
}
