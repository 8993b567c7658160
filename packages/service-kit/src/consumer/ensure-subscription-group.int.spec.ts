// ensureSubscriptionGroup against the real embedded event store: a restart
// with new consumer settings (the failure lab's short lease) reaches a group
// that already exists.
import {
  createPostgresEventStore,
  eventStoreMigrations,
  parseGroupSettings,
  type EventStoreTables,
} from '@effectively-once/event-store';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureSubscriptionGroup } from './ensure-subscription-group.js';

const { url, db } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);
const store = createPostgresEventStore({ url, pollIntervalMs: 50 });
afterAll(() => store.close());

const settingsOf = (group: string) =>
  db
    .selectFrom('es_subscription_group')
    .select(['message_timeout_ms', 'max_retry_count', 'filter_kind', 'filter_values'])
    .where('group_name', '=', group)
    .executeTakeFirstOrThrow();

const settings = (messageTimeoutMs: number, maxRetryCount: number) =>
  parseGroupSettings({
    filter: { kind: 'event_type', types: ['OrderPlaced'] },
    startFrom: 'start',
    messageTimeoutMs,
    maxRetryCount,
  });

describe('ensureSubscriptionGroup', () => {
  it('creates a missing group with the given settings', async () => {
    await ensureSubscriptionGroup({
      store,
      group: 'kit-ensure-new-v1',
      settings: settings(30_000, 30),
    });

    expect(await settingsOf('kit-ensure-new-v1')).toEqual({
      message_timeout_ms: 30_000,
      max_retry_count: 30,
      filter_kind: 'event_type',
      filter_values: ['OrderPlaced'],
    });
  });

  it("updates an existing group's message timeout and retry count, keeping its filter", async () => {
    // Given a group created with the defaults
    const group = 'kit-ensure-existing-v1';
    await ensureSubscriptionGroup({ store, group, settings: settings(30_000, 30) });

    // When the consumer starts again in lab mode, with another filter too
    await ensureSubscriptionGroup({
      store,
      group,
      settings: parseGroupSettings({
        ...settings(3_000, 5),
        filter: { kind: 'event_type', types: ['OrderConfirmed'] },
      }),
    });

    // Then the group takes the new timeout and retry count; the filter is fixed at creation
    expect(await settingsOf(group)).toEqual({
      message_timeout_ms: 3_000,
      max_retry_count: 5,
      filter_kind: 'event_type',
      filter_values: ['OrderPlaced'],
    });
  });

  it('leaves an existing group as it is when told not to update it (a reconnect)', async () => {
    const group = 'kit-ensure-reconnect-v1';
    await ensureSubscriptionGroup({ store, group, settings: settings(3_000, 5) });

    await ensureSubscriptionGroup({
      store,
      group,
      settings: settings(30_000, 30),
      updateExisting: false,
    });

    expect(await settingsOf(group)).toMatchObject({
      message_timeout_ms: 3_000,
      max_retry_count: 5,
    });
  });
});
