// Group administration on EventStoreDB: each group is a persistent
// subscription to $all, plus the adapter's retry group and options stream
// (ADR 0009), kept in step here.
import {
  PersistentSubscriptionDoesNotExistError,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import {
  isTimeStart,
  type SubscriptionGroupChanges,
  type SubscriptionGroupSettings,
} from '../port/subscription.js';
import type { EsdbClient } from './esdb-client.js';
import { readGroupOptions, writeGroupOptions } from './group-options.js';
import { applyEsdbChanges, esdbSettingsDiffer, toEsdbFilter, toEsdbSettings } from './mapping.js';
import { ensureRetryGroup, retryStreamOf } from './retry-schedule.js';
import { positionRecordedSince, refuseExistingGroup } from './start-at-time.js';

async function ignoreMissingGroup(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof PersistentSubscriptionDoesNotExistError)) throw error;
  }
}

/** @example await createEsdbGroup(client, 'billing-v1', parseGroupSettings({ maxRetryCount: 3 })); */
export async function createEsdbGroup(
  client: EsdbClient,
  group: string,
  settings: SubscriptionGroupSettings,
): Promise<void> {
  const { startFrom } = settings;
  if (isTimeStart(startFrom)) await refuseExistingGroup(client, group);
  const esdbSettings = toEsdbSettings({
    ...settings,
    startFrom: isTimeStart(startFrom)
      ? await positionRecordedSince(client, startFrom.recordedAtOrAfter)
      : startFrom,
  });
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
