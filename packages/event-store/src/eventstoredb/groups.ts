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

/**
 * Sends an update only when a setting differs from the server's (see
 * `esdbSettingsDiffer`). A new ordering key may change the strategy (Pinned
 * for a key, RoundRobin without): the server then restarts the group, dropping
 * its connections, which reconnect and get the group's messages anew.
 */
export async function updateEsdbGroup(
  client: EsdbClient,
  group: string,
  changes: SubscriptionGroupChanges,
): Promise<void> {
  const { settings } = await client.getPersistentSubscriptionToAllInfo(group);
  const current = await readGroupOptions(client, group);
  // null: the ordering is removed; absent: it stays as it is.
  const orderingKey =
    changes.orderingKey === undefined ? current.orderingKey : (changes.orderingKey ?? undefined);
  const next = applyEsdbChanges(settings, changes, orderingKey);
  if (esdbSettingsDiffer(settings, next)) {
    await client.updatePersistentSubscriptionToAll(group, next);
  }
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
