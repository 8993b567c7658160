// ensureSubscriptionGroup against the real embedded event store: a restart
// with new consumer settings (the failure lab's short lease) reaches a group
// that already exists, and a missing group starts at the replay horizon.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import { parseGroupSettings } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
  type EventStoreTables,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import {
  appendToOrder,
  orderConfirmed,
  orderPlaced,
  settledLine,
} from '../testing/consumer-fixtures.js';
import { recordingLogger } from '../testing/recording-logger.js';
import { ensureSubscriptionGroup } from './ensure-subscription-group.js';
import { startConsumer } from './start-consumer.js';

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

  it('startConsumer creates a missing group at the replay horizon, or at the start when asked for a full replay', async () => {
    // Given an order whose first event was recorded 200 days ago and whose second is recent
    const orderId = randomUUID();
    const [old] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);
    await sql`UPDATE es_event SET created_at = created_at - interval '200 days'
               WHERE event_id = ${old ?? ''}`.execute(db);
    const [recent] = await appendToOrder(store, orderId, [orderConfirmed(orderId)]);

    // When a consumer with a 30-day horizon starts without a group, and another asks for the start
    const atHorizon = await consumeUntilAcked(orderId, recent ?? '', undefined);
    const fromStart = await consumeUntilAcked(orderId, recent ?? '', 'start');

    // Then the first never receives the old event; the full replay receives both
    expect(atHorizon).toEqual([recent]);
    expect(fromStart).toEqual([old, recent]);
  });
});

/** Runs a new consumer of the order's stream, one delivery at a time, until `last` is acked. */
async function consumeUntilAcked(
  orderId: string,
  last: string,
  startFrom: 'start' | undefined,
): Promise<string[]> {
  const seen: string[] = [];
  const { log, waitFor } = recordingLogger();
  const running = startConsumer({
    store,
    consumer: `kit-ensure-horizon-${startFrom ?? 'default'}-v1`,
    streamPrefixes: [orderStream(orderId)],
    concurrency: 1,
    replayHorizonMs: 30 * 86_400_000,
    ...(startFrom === undefined ? {} : { groupSettings: { startFrom } }),
    handle: (_event, recorded) => {
      seen.push(recorded.id);
      return Promise.resolve({ outcome: 'ignored' as const });
    },
    metrics: createServiceMetrics({ service: 'kit' }),
    log,
  });
  try {
    await waitFor(settledLine(last, 'delivery acknowledged'), 'the last event acked');
  } finally {
    await running.close();
  }
  return seen;
}
