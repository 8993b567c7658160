import { expect, it } from 'vitest';
import type { EventStore } from '../../port/event-store.js';
import type { Delivery, SubscriptionGroupSettings } from '../../port/subscription.js';
import { receive } from '../receiver.js';
import { newEvent, newEvents, uniqueName, type ContractHarness } from './harness.js';

export interface GroupContext {
  harness: () => ContractHarness;
  store: () => EventStore;
}

/** A group on its own stream prefix, so tests sharing a server never see each other's events. */
export async function groupOnOwnPrefix(
  store: EventStore,
  settings: Partial<SubscriptionGroupSettings> = {},
) {
  const prefix = uniqueName('grp');
  const group = uniqueName('group');
  await store.createSubscriptionGroup(group, {
    filter: { kind: 'stream_prefix', prefixes: [prefix] },
    ...settings,
  });
  return { group, stream: `${prefix}-1`, prefix };
}

const ids = (deliveries: readonly Delivery[]) => deliveries.map((delivery) => delivery.event.id);

/** Groups: fan-out, retries, parking, replay, checkpoints, timeouts. */
export function groupContract(context: GroupContext): void {
  it('two groups each receive every event', async () => {
    const store = context.store();
    const { group: first, stream, prefix } = await groupOnOwnPrefix(store);
    const second = uniqueName('group');
    await store.createSubscriptionGroup(second, {
      filter: { kind: 'stream_prefix', prefixes: [prefix] },
    });
    const events = newEvents(4);
    await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
    for (const group of [first, second]) {
      const subscription = store.subscribeToGroup(group);
      const received = await receive(subscription).atLeast(4);
      expect(ids(received)).toEqual(events.map((event) => event.id));
      await Promise.all(received.map((delivery) => delivery.ack()));
      await subscription.close();
    }
  });

  it('filters by event type on the store side', async () => {
    const store = context.store();
    const prefix = uniqueName('typed');
    const wanted = uniqueName('Wanted').replace('-', '');
    const group = uniqueName('group');
    await store.createSubscriptionGroup(group, { filter: { kind: 'event_type', types: [wanted] } });
    const kept = newEvent(wanted);
    await store.appendToStream(`${prefix}-1`, [newEvent('Unwanted'), kept], {
      expectedRevision: 'no_stream',
    });
    const subscription = store.subscribeToGroup(group);
    const delivery = await receive(subscription).next();
    expect(delivery.event.id).toBe(kept.id);
    await delivery.ack();
    await subscription.close();
  });

  it('nack retry delivers again with the retry count increased', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store, { maxRetryCount: 5 });
    const event = newEvent();
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    for (const expected of [0, 1, 2]) {
      const delivery = await deliveries.next();
      expect({ id: delivery.event.id, retryCount: delivery.retryCount }).toEqual({
        id: event.id,
        retryCount: expected,
      });
      if (expected < 2) await delivery.nack('retry', 'transient failure');
      else await delivery.ack();
    }
    await subscription.close();
  });

  it('parks a message past maxRetryCount, and a replay delivers it again with the same event id', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store, { maxRetryCount: 1 });
    const poison = newEvent('PoisonArrived');
    const healthy = newEvent();
    await store.appendToStream(stream, [poison, healthy], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group, { maxInFlight: 1 });
    const deliveries = receive(subscription);
    const seen: [string, number][] = [];
    while (!seen.some(([id]) => id === healthy.id)) {
      const delivery = await deliveries.next();
      seen.push([delivery.event.id, delivery.retryCount]);
      if (delivery.event.id === poison.id) await delivery.nack('retry', 'still failing');
      else await delivery.ack();
    }
    expect(seen).toEqual([
      [poison.id, 0],
      [poison.id, 1],
      [healthy.id, 0],
    ]);
    const parked = await store.listParkedMessages(group);
    expect(parked.map((message) => message.event.id)).toEqual([poison.id]);

    await store.replayParkedMessages(group);
    const replayed = await deliveries.next();
    expect(replayed.event).toMatchObject({ id: poison.id, type: 'PoisonArrived' });
    await replayed.ack();
    await subscription.close();
  });

  it('a replay of selected parked messages brings back those alone; the others stay parked', async () => {
    // Given two parked messages
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store);
    const [first, second] = newEvents(2);
    if (first === undefined || second === undefined) throw new Error('two events expected');
    await store.appendToStream(stream, [first, second], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group, { maxInFlight: 1 });
    const deliveries = receive(subscription);
    for (let index = 0; index < 2; index++) {
      await (await deliveries.next()).nack('park', 'set aside');
    }
    // When only the first (the older: EventStoreDB replays from the front) is replayed
    await store.replayParkedMessages(group, { eventIds: [first.id] });
    // Then it comes back with its id, and the second is still parked
    const replayed = await deliveries.next();
    expect(replayed.event.id).toBe(first.id);
    await replayed.ack();
    const parked = await store.listParkedMessages(group);
    expect(parked.map((message) => message.event.id)).toEqual([second.id]);
    await subscription.close();
  });

  it('a group that starts at a time receives the events recorded since then, not older ones', async () => {
    // Given an event, then a later one, in the group's own streams
    const store = context.store();
    const prefix = uniqueName('since');
    const stream = `${prefix}-1`;
    await store.appendToStream(stream, newEvents(1), { expectedRevision: 'no_stream' });
    // A start time has millisecond precision and includes its whole millisecond,
    // so the two events must not share one: an older event recorded in the same
    // millisecond as the later one is, rightly, "at or after" it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = newEvent();
    await store.appendToStream(stream, [later], { expectedRevision: 0 });
    const [recordedLater] = await store.readStream(stream, { fromRevision: 1 });
    if (recordedLater === undefined) throw new Error('the later event was not read back');
    // When a group is created starting at the later event's recorded time
    // (once no older transaction is in flight: see olderTransactionsEnded)
    await context.harness().inversion?.olderTransactionsEnded();
    const group = uniqueName('group');
    await store.createSubscriptionGroup(group, {
      filter: { kind: 'stream_prefix', prefixes: [prefix] },
      startFrom: { recordedAtOrAfter: recordedLater.createdAt },
    });
    // Then its first delivery is the later event, and an event appended now follows it
    const newest = newEvent();
    await store.appendToStream(stream, [newest], { expectedRevision: 1 });
    const subscription = store.subscribeToGroup(group);
    const received = await receive(subscription).atLeast(2);
    expect(ids(received)).toEqual([later.id, newest.id]);
    await Promise.all(received.map((delivery) => delivery.ack()));
    await subscription.close();
    await expect(
      store.createSubscriptionGroup(group, { startFrom: { recordedAtOrAfter: new Date() } }),
    ).rejects.toMatchObject({ code: 'SUBSCRIPTION_GROUP_EXISTS' });
  });

  it('nack park sets a message aside at once, with its reason', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store);
    const event = newEvent();
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const delivery = await receive(subscription).next();
    await delivery.nack('park', 'unknown SKU');
    await subscription.close();
    const parked = await store.listParkedMessages(group);
    expect(parked.map((message) => message.event.id)).toEqual([event.id]);
    if (store.backend === 'postgres') expect(parked[0]?.reason).toBe('unknown SKU');
  });

  it('an unacknowledged delivery is delivered again after the message timeout', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store, { messageTimeoutMs: 1000 });
    const event = newEvent();
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    const first = await deliveries.next();
    const second = await deliveries.next(15_000);
    expect([first.retryCount, second.retryCount]).toEqual([0, 1]);
    expect(second.event.id).toBe(event.id);
    await second.ack();
    await subscription.close();
  });

  it("the group's checkpoint survives its consumers: a new one goes on where the last stopped", async () => {
    const { group, stream } = await groupOnOwnPrefix(context.store());
    const events = newEvents(5);
    await context.store().appendToStream(stream, events, { expectedRevision: 'no_stream' });
    const before = await context.harness().openStore();
    const subscription = before.subscribeToGroup(group, { maxInFlight: 1 });
    const deliveries = receive(subscription);
    for (let index = 0; index < 3; index++) await (await deliveries.next()).ack();
    await subscription.close();
    await before.close();

    const after = await context.harness().openStore();
    try {
      const resumed = after.subscribeToGroup(group);
      const rest = await receive(resumed).atLeast(2);
      expect(ids(rest)).toEqual(events.slice(3).map((event) => event.id));
      await Promise.all(rest.map((delivery) => delivery.ack()));
      await resumed.close();
    } finally {
      await after.close();
    }
  });
}
