import {
  SubscriptionGroupError,
  type EventStore,
  type SubscriptionGroupSettings,
} from '@effectively-once/event-store';

/**
 * Creates the consumer's group unless it exists. An existing group keeps the
 * settings it was created with: the filter and start cannot change after
 * creation (as in EventStoreDB), so a new filter needs a new group name.
 */
export async function ensureSubscriptionGroup(input: {
  store: EventStore;
  group: string;
  settings: SubscriptionGroupSettings;
}): Promise<void> {
  try {
    await input.store.createSubscriptionGroup(input.group, input.settings);
  } catch (error) {
    if (error instanceof SubscriptionGroupError && error.code === 'SUBSCRIPTION_GROUP_EXISTS')
      return;
    throw error;
  }
}
