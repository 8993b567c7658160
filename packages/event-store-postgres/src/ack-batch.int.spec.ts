// Acknowledgments that arrive while one is on its way share the next DELETE;
// each resolves only once the DELETE that removed its message has returned.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import { newEvents, uniqueName } from '@effectively-once/event-store/testing';
import { receive } from '@effectively-once/event-store/testing';
import type { EventStoreTables } from './event-store.tables.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url, db } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);

describe('acknowledgments in batches', () => {
  it('given ten deliveries acknowledged at once, every one is settled and none comes back', async () => {
    // Given a consumer holding ten deliveries
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    const prefix = uniqueName('acks');
    const group = uniqueName('group');
    await store.createSubscriptionGroup(group, {
      filter: { kind: 'stream_prefix', prefixes: [prefix] },
      startFrom: 'start',
      maxInFlight: 10,
    });
    await store.appendToStream(`${prefix}-1`, newEvents(10), { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = await receive(subscription).atLeast(10);

    // When all ten are acknowledged together
    await Promise.all(deliveries.map((delivery) => delivery.ack()));

    // Then the group holds none of them any more
    const { group_id } = await db
      .selectFrom('es_subscription_group')
      .select('group_id')
      .where('group_name', '=', group)
      .executeTakeFirstOrThrow();
    const left = await db
      .selectFrom('es_subscription_message')
      .select('global_position')
      .where('group_id', '=', group_id)
      .execute();
    expect(left).toEqual([]);
    await subscription.close();
    await store.close();
  });
});
