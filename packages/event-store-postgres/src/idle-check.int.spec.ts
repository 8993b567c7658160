// The check a poll asks before its round (checkBeforeRound, idle-state.ts)
// must say yes whenever the round would hand out or change something: a false
// no delays a delivery. Each case builds a state that only a round can act on
// (no notification comes), asks the check, then runs the round to show it
// really acts; after the round the check says no again, so a yes is not
// simply the answer to everything.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewEvent } from '@effectively-once/event-store/port/envelope';
import type { SubscriptionGroupSettings } from '@effectively-once/event-store/port/subscription';
import { newEvent, newEvents, uniqueName } from '@effectively-once/event-store/testing';
import { receive, waitUntil } from '@effectively-once/event-store/testing';
import { ackBatch } from './ack-batch.js';
import { appendToStream } from './append-to-stream.js';
import { consumeRound } from './consume.js';
import type { EventStoreTables } from './event-store.tables.js';
import { createGroup, deleteGroup, loadGroup } from './groups.js';
import { checkBeforeRound } from './idle-state.js';
import { settleNack, type LeaseOf } from './leases.js';
import { openConsumerSession, type ConsumerSession } from './listener-session.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url, db } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);
const sessions: ConsumerSession[] = [];
afterAll(() => Promise.all(sessions.map((session) => session.close())));

/** Appends as another process would, but without the notification: only a poll finds it. */
async function appendQuietly(streamName: string, events: readonly NewEvent[]) {
  await appendToStream(db, {
    streamName,
    events,
    expectedRevision: 'any',
    maxEventBytes: 1024 * 1024,
  });
}

/** A group on a prefix of its own, and a live consumer of it (its advisory lock held). */
async function groupWithConsumer(settings: Partial<SubscriptionGroupSettings> = {}) {
  const prefix = uniqueName('idle');
  const name = uniqueName('group');
  await createGroup(db, name, {
    filter: { kind: 'stream_prefix', prefixes: [prefix] },
    ...settings,
  });
  const { group_id: groupId, filter } = await loadGroup(db, name);
  const consumer = await openConsumer(groupId, filter);
  const round = (reclaim = true, acked: readonly LeaseOf[] = []) =>
    consumeRound(db, { groupId, consumerId: consumer.consumerId, limit: 10, reclaim, acked });
  const wanted = async () => (await checkBeforeRound(db, groupId)).roundWanted;
  return { prefix, groupId, filter, consumer, round, wanted };
}

async function openConsumer(
  groupId: number,
  filter: Awaited<ReturnType<typeof loadGroup>>['filter'],
) {
  const session = await openConsumerSession(url, {
    groupId,
    filter,
    loadMembers: () => Promise.resolve([]),
    notifyChannels: 'per-type',
  });
  sessions.push(session);
  return session;
}

const leaseOf = (row: { global_position: number; deliveries: number }): LeaseOf => ({
  position: row.global_position,
  deliveries: row.deliveries,
});

describe('the check before a poll round says yes whenever the round would act', () => {
  it('on events its filter matches after the cursor', async () => {
    const { prefix, round, wanted } = await groupWithConsumer();
    expect(await wanted()).toBe(false);

    await appendQuietly(`${prefix}-1`, [newEvent()]);

    expect(await wanted()).toBe(true);
    expect((await round()).leased).toHaveLength(1);
    expect(await wanted()).toBe(false);
  });

  it('on events it does not match only once they fill a pump batch, so the cursor never lags far', async () => {
    const { round, wanted } = await groupWithConsumer();
    const elsewhere = uniqueName('elsewhere');
    await appendQuietly(`${elsewhere}-1`, newEvents(1));
    expect(await wanted()).toBe(false);

    await appendQuietly(`${elsewhere}-2`, newEvents(1000));

    expect(await wanted()).toBe(true);
    expect((await round()).leased).toHaveLength(0);
    expect(await wanted()).toBe(false);
  });

  it('on a message whose retry falls due', async () => {
    const { prefix, groupId, consumer, round, wanted } = await groupWithConsumer();
    await appendQuietly(`${prefix}-1`, [newEvent()]);
    const [leased] = (await round()).leased;
    await settleNack(db, {
      groupId,
      consumerId: consumer.consumerId,
      lease: leaseOf(leased!),
      action: 'retry',
      reason: 'try again soon',
      retryAfterMs: 300,
      counted: true,
    });
    // Not due yet: no round, and the wait until it is.
    const waiting = await checkBeforeRound(db, groupId);
    expect(waiting.roundWanted ? undefined : waiting.idle.nextRetryInMs).toBeGreaterThan(0);

    await waitUntil(async () => ((await wanted()) ? true : undefined), 'the check says yes');

    expect((await round()).leased).toHaveLength(1);
  });

  it('on a lease that expired', async () => {
    const { prefix, groupId, round, wanted } = await groupWithConsumer();
    await appendQuietly(`${prefix}-1`, [newEvent()]);
    const [leased] = (await round()).leased;
    expect(await wanted()).toBe(false);

    await sql`
      UPDATE es_subscription_message SET lease_expires_at = now()
       WHERE group_id = ${groupId} AND global_position = ${leased!.global_position}`.execute(db);

    expect(await wanted()).toBe(true);
    expect((await round()).leased).toHaveLength(1);
  });

  it('on a lease whose consumer is gone', async () => {
    const { prefix, groupId, filter, round, wanted } = await groupWithConsumer();
    const gone = await openConsumer(groupId, filter);
    await appendQuietly(`${prefix}-1`, [newEvent()]);
    await consumeRound(db, {
      groupId,
      consumerId: gone.consumerId,
      limit: 10,
      reclaim: false,
      acked: [],
    });
    expect(await wanted()).toBe(false);

    await gone.close();

    await waitUntil(async () => ((await wanted()) ? true : undefined), 'the check says yes');
    expect((await round()).leased).toHaveLength(1);
  });

  it('on a parked message replayed', async () => {
    const { prefix, groupId, consumer, round, wanted } = await groupWithConsumer();
    await appendQuietly(`${prefix}-1`, [newEvent()]);
    const [leased] = (await round()).leased;
    await settleNack(db, {
      groupId,
      consumerId: consumer.consumerId,
      lease: leaseOf(leased!),
      action: 'park',
      reason: 'poison',
      retryAfterMs: undefined,
      counted: true,
    });
    expect(await wanted()).toBe(false);

    const store = createPostgresEventStore({ url });
    try {
      await store.replayParkedMessages((await groupName(groupId)).group_name);
    } finally {
      await store.close();
    }

    expect(await wanted()).toBe(true);
    expect((await round()).leased).toHaveLength(1);
  });

  it("on the next message of a key, once the key's message in flight is acknowledged", async () => {
    const { prefix, groupId, consumer, round, wanted } = await groupWithConsumer({
      orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
    });
    await appendQuietly(`${prefix}-1`, newEvents(2));
    const [first] = (await round()).leased;
    // The second waits for the first's ack: nothing for a round to do.
    expect(await wanted()).toBe(false);

    await ackBatch(db, { groupId, consumerId: consumer.consumerId }).ack(leaseOf(first!));

    expect(await wanted()).toBe(true);
    expect((await round()).leased).toHaveLength(1);
  });

  it('on a parked message that a pending message of a superseding type has not passed yet', async () => {
    const { prefix, groupId, consumer, round, wanted } = await groupWithConsumer({
      orderingKey: { source: { from: 'stream' }, supersedeParkedWith: ['Cancelled'] },
    });
    await appendQuietly(`${prefix}-1`, [newEvent('Placed'), newEvent('Cancelled')]);
    const [placed] = (await round()).leased;
    await settleNack(db, {
      groupId,
      consumerId: consumer.consumerId,
      lease: leaseOf(placed!),
      action: 'park',
      reason: 'poison',
      retryAfterMs: undefined,
      counted: true,
    });
    // Parked, the first still holds its key back: only the round's supersede step frees the second.

    expect(await wanted()).toBe(true);
    const [cancelled] = (await round()).leased;
    expect(cancelled?.event_type).toBe('Cancelled');
    expect(await wanted()).toBe(false);
  });

  it('on a deleted group, so that the settings reload before the round ends the subscription', async () => {
    const { groupId, wanted } = await groupWithConsumer();
    expect(await wanted()).toBe(false);

    await deleteGroup(db, (await groupName(groupId)).group_name);

    expect(await wanted()).toBe(true);
  });
});

async function groupName(groupId: number) {
  return db
    .selectFrom('es_subscription_group')
    .select('group_name')
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
}

/** The transaction that last locked or changed the group's row: each round takes it FOR UPDATE. */
async function groupRowXmax(groupId: number): Promise<string> {
  const { rows } = await sql<{ xmax: string }>`
    SELECT xmax::text FROM es_subscription_group WHERE group_id = ${groupId}`.execute(db);
  return rows[0]?.xmax ?? '';
}

describe('an idle consumer', () => {
  it('polls without a round, so without a commit, and still delivers what only a poll finds', async () => {
    let looks = 0;
    const store = createPostgresEventStore({
      url,
      pollIntervalMs: 50,
      onGroupPumped: () => looks++,
    });
    const prefix = uniqueName('idle-loop');
    const name = uniqueName('group');
    await store.createSubscriptionGroup(name, {
      filter: { kind: 'stream_prefix', prefixes: [prefix] },
    });
    const { group_id: groupId } = await loadGroup(db, name);
    const deliveries = receive(store.subscribeToGroup(name));
    try {
      // Given a consumer that has looked once (its first round)
      await waitUntil(() => (looks > 0 ? true : undefined), 'the consumer looked once');
      const lockedBy = await groupRowXmax(groupId);
      const looksBefore = looks;

      // When it polls five times with nothing to do
      await waitUntil(() => (looks >= looksBefore + 5 ? true : undefined), 'five more looks');

      // Then no round locked the group's row
      expect(await groupRowXmax(groupId)).toBe(lockedBy);

      // And an event appended without a notification is still delivered by a poll
      const event = newEvent();
      await appendQuietly(`${prefix}-1`, [event]);
      const [delivery] = await deliveries.atLeast(1, 10_000);
      expect(delivery?.event.id).toBe(event.id);
      await delivery?.ack();
    } finally {
      await store.close();
    }
  });

  it('still carries an acknowledgment waiting on its ack delay with its next poll round', async () => {
    let looks = 0;
    const store = createPostgresEventStore({
      url,
      pollIntervalMs: 50,
      ackDelayMs: 5_000,
      onGroupPumped: () => looks++,
    });
    const prefix = uniqueName('idle-ack');
    const name = uniqueName('group');
    await store.createSubscriptionGroup(name, {
      filter: { kind: 'stream_prefix', prefixes: [prefix] },
      messageTimeoutMs: 60_000,
    });
    const deliveries = receive(store.subscribeToGroup(name));
    try {
      await store.appendToStream(`${prefix}-1`, [newEvent()], { expectedRevision: 'no_stream' });
      const [delivery] = await deliveries.atLeast(1);
      const looksBefore = looks;

      // When the delivery is acknowledged (the ack resolves once a round deleted its message)
      await delivery!.ack();

      // Then the first poll after it ran the round that carried it: a check
      // that answered "nothing to do" would have looked again and again until
      // the delay's 5 s sent it.
      expect(looks - looksBefore).toBeLessThanOrEqual(2);
    } finally {
      await store.close();
    }
  });
});
