// Group administration on EventStoreDB: each group is a persistent
// subscription to $all, plus the adapter's retry group and options stream
// (ADR 0009), kept in step here.
import {
  PersistentSubscriptionDoesNotExistError,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import type { SubscriptionGroupChanges, SubscriptionGroupSettings } from '../port/subscription.js';
import { readGroupOptions, writeGroupOptions } from './group-options.js';
import { applyEsdbChanges, esdbSettingsDiffer, toEsdbFilter, toEsdbSettings } from './mapping.js';
import { ensureRetryGroup, retryStreamOf } from './retry-schedule.js';

async function ignoreMissingGroup(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof PersistentSubscriptionDoesNotExistError)) throw error;
  }
}

/** @example await createEsdbGroup(client, 'billing-v1', parseGroupSettings({ maxRetryCount: 3 })); */
export async function createEsdbGroup(
  client: EventStoreDBClient,
  group: string,
  settings: SubscriptionGroupSettings,
): Promise<void> {
  const esdbSettings = toEsdbSettings(settings);
  await client.createPersistentSubscriptionToAll(group, esdbSettings, {
    filter: toEsdbFilter(settings.filter),
  });
  // Always written, so a group created again under an old name forgets the old key.
  await writeGroupOptions(client, group, { orderingKey: settings.orderingKey });
  await ensureRetryGroup(client, group, esdbSettings);
}

/** Sends an update only when a setting differs from the server's (see `esdbSettingsDiffer`). */
export async function updateEsdbGroup(
  client: EventStoreDBClient,
  group: string,
  changes: SubscriptionGroupChanges,
): Promise<void> {
  const { settings } = await client.getPersistentSubscriptionToAllInfo(group);
  const next = applyEsdbChanges(settings, changes);
  if (esdbSettingsDiffer(settings, next)) {
    await client.updatePersistentSubscriptionToAll(group, next);
  }
  if (changes.orderingKey === undefined) return;
  const orderingKey = changes.orderingKey ?? undefined; // null: the ordering is removed
  const current = await readGroupOptions(client, group);
  if (JSON.stringify(current.orderingKey) !== JSON.stringify(orderingKey)) {
    await writeGroupOptions(client, group, { orderingKey });
  }
}

export async function deleteEsdbGroup(client: EventStoreDBClient, group: string): Promise<void> {
  await client.deletePersistentSubscriptionToAll(group);
  await ignoreMissingGroup(() =>
    client.deletePersistentSubscriptionToStream(retryStreamOf(group), group),
  );
}

/** Both parked lists: the group's own, and its retry stream's. */
export async function replayEsdbParked(client: EventStoreDBClient, group: string): Promise<void> {
  await client.replayParkedMessagesToAll(group);
  await ignoreMissingGroup(() => client.replayParkedMessagesToStream(retryStreamOf(group), group));
}
