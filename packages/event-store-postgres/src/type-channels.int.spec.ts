// Appends are announced on a channel per event type as well as on the general
// one (append-channels.ts), and a subscriber whose filter names types listens
// only to those: an append it could never handle does not even reach its
// connection. The cases that could lose a wake-up on the way, a type whose
// name is too long for a channel and a replay of parked messages (which
// appends nothing), are shown to still wake a consumer whose poll is a
// minute away.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import type { EventStore } from '@effectively-once/event-store/port/event-store';
import { newEvent, receive, uniqueName, waitUntil } from '@effectively-once/event-store/testing';
import type { NotifyChannels } from './append-channels.js';
import type { EventStoreTables } from './event-store.tables.js';
import { createGroup, loadGroup } from './groups.js';
import { openConsumerSession, type ConsumerSession } from './listener-session.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url, db } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);
const sessions: ConsumerSession[] = [];
const stores: EventStore[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  await Promise.all(stores.map((store) => store.close()));
});

const A_MINUTE = 60_000;

function openStore(pollIntervalMs: number, onGroupPumped: () => void): EventStore {
  const store = createPostgresEventStore({ url, pollIntervalMs, onGroupPumped });
  stores.push(store);
  return store;
}

/** Appends the event to a stream of its own and returns once its NOTIFY went out. */
async function appendAndAnnounce(event: ReturnType<typeof newEvent>): Promise<void> {
  const writer = createPostgresEventStore({ url });
  await writer.appendToStream(uniqueName('stream'), [event], { expectedRevision: 'any' });
  // Closing flushes the notifier: the NOTIFY has been sent.
  await writer.close();
}

async function consumerOf(types: readonly string[], notifyChannels: NotifyChannels) {
  const name = uniqueName('group');
  await createGroup(db, name, { filter: { kind: 'event_type', types }, startFrom: 'end' });
  const group = await loadGroup(db, name);
  const session = await openConsumerSession(url, {
    groupId: group.group_id,
    filter: group.filter,
    loadMembers: () => Promise.resolve([]),
    notifyChannels,
  });
  sessions.push(session);
  return session;
}

/** A consumer of `types` in a store whose poll is a minute away: only a notification wakes it soon. */
async function sleepyConsumer(types: readonly string[]) {
  const group = uniqueName('group');
  let rounds = 0;
  const store = openStore(A_MINUTE, () => rounds++);
  await store.createSubscriptionGroup(group, {
    filter: { kind: 'event_type', types },
    startFrom: 'end',
    maxRetryCount: 0,
  });
  const deliveries = receive(store.subscribeToGroup(group));
  await waitUntil(() => (rounds > 0 ? true : undefined), 'its first round');
  return { store, group, deliveries };
}

describe('notification channels', () => {
  it('a consumer filtering event types hears only the appends of its types', async () => {
    const handled = uniqueName('Handled');
    const other = uniqueName('Other');
    const perType = await consumerOf([handled], 'per-type');
    const general = await consumerOf([handled], 'one');

    for (let index = 0; index < 3; index++) await appendAndAnnounce(newEvent(other));
    await appendAndAnnounce(newEvent(handled));

    // Notifications arrive in commit order: once the last one is heard, all are.
    await waitUntil(
      () => (general.heard() >= 4 ? true : undefined),
      'the general listener heard all',
    );
    await waitUntil(() => (perType.heard() >= 1 ? true : undefined), 'its own type is heard');
    expect(general.heard()).toBe(4);
    expect(perType.heard()).toBe(1);
    expect(await perType.wakeup.wait(0)).toBe(true);
  });

  it('an event type too long for a channel name still wakes its consumer at once', async () => {
    const longType = `${uniqueName('Long')}${'X'.repeat(80)}`;
    const { deliveries } = await sleepyConsumer([longType]);
    const event = newEvent(longType);

    await appendAndAnnounce(event);

    const delivery = await deliveries.next(15_000);
    expect(delivery.event.id).toBe(event.id);
  });

  it('a replay of parked messages wakes a consumer that listens to its types only', async () => {
    const type = uniqueName('Parked');
    const { store, group, deliveries } = await sleepyConsumer([type]);
    const event = newEvent(type);
    await appendAndAnnounce(event);
    const first = await deliveries.next(15_000);
    await first.nack('park', 'parked by the test');
    await waitUntil(
      async () => ((await store.listParkedMessages(group)).length === 1 ? true : undefined),
      'the message is parked',
    );

    await store.replayParkedMessages(group);

    const again = await deliveries.next(15_000);
    expect(again.event.id).toBe(event.id);
  });
});
