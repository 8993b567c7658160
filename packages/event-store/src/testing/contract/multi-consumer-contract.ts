// Several consumers of one group, each with a store (connections) of its own,
// as replicas of a service would be: they share the work, an ordered group never
// has two messages of one key in flight at once, and a consumer that leaves
// mid-stream loses nothing. Run against every back end, and against the fake
// EventStoreDB client (fake-group-dispatch.ts), which models the strategies.
import { expect, it } from 'vitest';
import type { EventStore } from '../../port/event-store.js';
import type { Delivery, PersistentSubscription } from '../../port/subscription.js';
import { waitUntil } from '../receiver.js';
import { groupOnOwnPrefix } from './group-contract.js';
import { newEvents } from './harness.js';

const byStream = { source: { from: 'stream' as const }, supersedeParkedWith: [] };

/** A handler that records what it does: its effects in a marker-like set, and who held which key when. */
function recordingConsumers() {
  /** Event ids whose effect happened: a set, as the markers are, so a duplicate adds nothing. */
  const effects = new Set<string>();
  const handledBy = new Map<number, number>();
  /** Keys with a delivery in a handler now, and every time a key was found held already. */
  const keysInFlight = new Set<string>();
  const overlaps: string[] = [];

  async function handle(consumer: number, delivery: Delivery) {
    const key = delivery.event.streamName;
    if (keysInFlight.has(key)) overlaps.push(`${key} (${delivery.event.id})`);
    keysInFlight.add(key);
    // A few turns of the event loop, as real work would take, so another
    // consumer could start on the same key meanwhile if the store let it.
    for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    effects.add(delivery.event.id);
    handledBy.set(consumer, (handledBy.get(consumer) ?? 0) + 1);
    keysInFlight.delete(key);
    await delivery.ack();
  }

  const consume = async (consumer: number, subscription: PersistentSubscription) => {
    for await (const delivery of subscription) await handle(consumer, delivery);
  };
  return { effects, handledBy, overlaps, consume };
}

/** What these cases need: a store to set up with, and more clients of the same store. */
export interface MultiConsumerContext {
  store: () => EventStore;
  /** A new client of the store under test, with connections of its own. */
  openStore: () => Promise<EventStore>;
}

/**
 * Resolves once both consumers have handled something: one new key at a time,
 * each with one message, until both had one. A consumer that joins later takes
 * keys over even while a message of theirs is in a handler on the other one
 * (the window docs/event-store.md describes); the ordering case starts after.
 */
async function bothConnected(
  store: EventStore,
  streamPrefix: string,
  recording: ReturnType<typeof recordingConsumers>,
) {
  for (let attempt = 0; recording.handledBy.size < 2; attempt += 1) {
    if (attempt === 100) throw new Error('one of the two consumers never got a delivery');
    const [event] = newEvents(1);
    if (event === undefined) throw new Error('no event');
    await store.appendToStream(`${streamPrefix}-${String(attempt)}`, [event], {
      expectedRevision: 'no_stream',
    });
    await waitUntil(
      () => (recording.effects.has(event.id) ? true : undefined),
      'the warm-up event is handled',
      30_000,
    );
  }
}

async function openStores(context: MultiConsumerContext, count: number): Promise<EventStore[]> {
  return Promise.all(Array.from({ length: count }, () => context.openStore()));
}

/** Two consumers of one group, each with a store of its own. */
export function multiConsumerContract(context: MultiConsumerContext): void {
  it('two consumers of an ordered group share the work and never hold two messages of one key at once', async () => {
    const { group, prefix } = await groupOnOwnPrefix(context.store(), { orderingKey: byStream });
    const stores = await openStores(context, 2);
    try {
      const recording = recordingConsumers();
      const subscriptions = stores.map((store) =>
        store.subscribeToGroup(group, { maxInFlight: 4 }),
      );
      const consumers = subscriptions.map((subscription, consumer) =>
        recording.consume(consumer, subscription),
      );
      await bothConnected(context.store(), `${prefix}-warm-up`, recording);
      const handledBefore = new Map(recording.handledBy);
      // New keys in each round: a key goes to a consumer when its first message comes,
      // so keys that come once both are connected are shared between them.
      const appended: string[] = [];
      for (let round = 0; round < 6; round += 1) {
        for (let key = 0; key < 4; key += 1) {
          const events = newEvents(3);
          const stream = `${prefix}-${String(round)}-${String(key)}`;
          await context.store().appendToStream(stream, events, { expectedRevision: 'no_stream' });
          appended.push(...events.map((event) => event.id));
        }
        await waitUntil(
          () => (appended.every((id) => recording.effects.has(id)) ? true : undefined),
          `the ${String(appended.length)} events so far are handled`,
          30_000,
        );
      }
      await Promise.all(subscriptions.map((subscription) => subscription.close()));
      await Promise.all(consumers);
      expect(recording.overlaps, 'messages of one key in flight at once').toEqual([]);
      expect(appended.every((id) => recording.effects.has(id))).toBe(true);
      const handledSince = [0, 1].map(
        (consumer) => (recording.handledBy.get(consumer) ?? 0) - (handledBefore.get(consumer) ?? 0),
      );
      expect(
        handledSince.every((count) => count > 0),
        `deliveries per consumer: ${handledSince.join(', ')}`,
      ).toBe(true);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  }, 60_000);

  it('a consumer that leaves mid-stream: its unsettled messages reach the other, and every message is handled', async () => {
    // A short timeout: a back end that frees a leaving consumer's messages only when it runs out.
    const { group, prefix } = await groupOnOwnPrefix(context.store(), {
      orderingKey: byStream,
      messageTimeoutMs: 2_000,
    });
    const [leaving, staying] = await openStores(context, 2);
    if (leaving === undefined || staying === undefined) throw new Error('two stores expected');
    try {
      // The leaving consumer takes messages and settles none of them; room for
      // all ten, so that a pinned server gives it both keys.
      const leavingSubscription = leaving.subscribeToGroup(group, { maxInFlight: 10 });
      const unsettled: Delivery[] = [];
      const taking = (async () => {
        for await (const delivery of leavingSubscription) unsettled.push(delivery);
      })();
      const streams = [`${prefix}-a`, `${prefix}-b`];
      const events = streams.flatMap((stream) => newEvents(5).map((event) => ({ stream, event })));
      for (const stream of streams) {
        await context.store().appendToStream(
          stream,
          events.filter((appended) => appended.stream === stream).map(({ event }) => event),
          { expectedRevision: 'no_stream' },
        );
      }
      await waitUntil(
        () =>
          new Set(unsettled.map((delivery) => delivery.event.streamName)).size === 2
            ? true
            : undefined,
        'the leaving consumer holds messages of both keys',
        30_000,
      );
      const recording = recordingConsumers();
      const stayingSubscription = staying.subscribeToGroup(group, { maxInFlight: 4 });
      const consumer = recording.consume(1, stayingSubscription);

      // It leaves without settling what it holds.
      const left = leavingSubscription.close();
      await waitUntil(
        () => (recording.effects.size === events.length ? true : undefined),
        'every message is handled by the consumer that stayed',
        30_000,
      );
      await Promise.all([left, taking]);
      await stayingSubscription.close();
      await consumer;
      expect([...recording.effects].sort()).toEqual(events.map(({ event }) => event.id).sort());
      const redelivered = unsettled.map((delivery) => delivery.event.id);
      expect(redelivered.every((id) => recording.effects.has(id))).toBe(true);
      expect(recording.overlaps, 'messages of one key in flight at once').toEqual([]);
    } finally {
      await Promise.all([leaving.close(), staying.close()]);
    }
  }, 60_000);
}
