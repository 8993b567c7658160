import { randomUUID } from 'node:crypto';
import { orderStream, STREAM_PREFIX } from '@effectively-once/contracts';
import type {
  CatchUpSubscription,
  RecordedEvent,
  SubscribeToAllOptions,
} from '@effectively-once/event-store';
import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../api/console.api.js';
import { createFeed } from './feed.js';
import { followSagaEvents, SAGA_FEED_READ_INTERVAL_MS } from './saga-events.js';

function recorded(index: number): RecordedEvent {
  const orderId = randomUUID();
  return {
    id: randomUUID(),
    type: 'OrderPlaced',
    data: { orderId },
    metadata: { correlationId: orderId, schemaVersion: 1 },
    streamName: orderStream(orderId),
    revision: 0n,
    position: { commit: BigInt(index), prepare: BigInt(index) },
    createdAt: new Date('2026-11-30T10:00:00.000Z'),
  };
}

/**
 * A store holding `events` in global order, as far as subscribeToAll goes:
 * each subscription yields the events after its `after`, then waits for more
 * until closed. The subscriptions numbered in `failing` throw after yielding
 * `failAfter` events, as when the store restarts.
 */
function fakeStore(input: { events: RecordedEvent[]; failing: number[]; failAfter: number }) {
  const calls: SubscribeToAllOptions[] = [];
  const callWaiters: { count: number; resolve: () => void }[] = [];
  const subscribeToAll = (options: SubscribeToAllOptions = {}): CatchUpSubscription => {
    calls.push(options);
    const number = calls.length;
    for (const waiter of callWaiters.filter((entry) => entry.count <= number)) waiter.resolve();
    const { after } = options;
    const pending = input.events.filter(
      (event) =>
        after === undefined ||
        event.position.commit > after.commit ||
        (event.position.commit === after.commit && event.position.prepare > after.prepare),
    );
    let closed = false;
    let wake: (() => void) | undefined;
    return {
      async *[Symbol.asyncIterator]() {
        let yielded = 0;
        for (const event of pending) {
          if (input.failing.includes(number) && yielded === input.failAfter) {
            throw new Error('connection terminated');
          }
          yield event;
          yielded += 1;
        }
        if (input.failing.includes(number)) throw new Error('connection terminated');
        while (!closed) await new Promise<void>((resolve) => (wake = resolve));
      },
      close: () => {
        closed = true;
        wake?.();
        return Promise.resolve();
      },
    };
  };
  return {
    store: { subscribeToAll },
    calls,
    /** Resolves once subscribeToAll has been called `count` times. */
    subscribed: (count: number): Promise<void> =>
      calls.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => callWaiters.push({ count, resolve })),
  };
}

/** Every item the feed publishes, and a wait for the n-th. */
function watch(feed: ReturnType<typeof createFeed>) {
  const published: FeedItem[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  feed.subscribe((item) => {
    published.push(item);
    for (const waiter of waiters.filter((entry) => entry.count <= published.length)) {
      waiter.resolve();
    }
  });
  return {
    published,
    untilPublished: (count: number): Promise<void> =>
      published.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
  };
}

/** A logger that remembers the warnings and announces each. */
function watchedLog() {
  const warnings: unknown[][] = [];
  let announce: (() => void) | undefined;
  const warned = new Promise<void>((resolve) => (announce = resolve));
  return {
    log: {
      warn: (...args: unknown[]) => {
        warnings.push(args);
        announce?.();
      },
    },
    warnings,
    warned,
  };
}

describe('followSagaEvents', () => {
  it('resumes after the last event it published when the subscription fails, publishing each event once', async () => {
    // Given a store with three events whose first subscription fails after one of them
    const events = [recorded(1), recorded(2), recorded(3)];
    const { store, calls, subscribed } = fakeStore({ events, failing: [1], failAfter: 1 });
    const feed = createFeed({ capacity: 100 });
    const feedWatch = watch(feed);
    const { log, warnings } = watchedLog();

    // When the console follows the saga events, with a pause of 1 ms after a failure
    const following = followSagaEvents({ store, feed, log, retry: { firstMs: 1, maxMs: 1 } });
    await subscribed(2);
    await feedWatch.untilPublished(3);
    await following.close();

    // Then the second subscription started after the first event, from the saga's streams only
    expect(calls).toHaveLength(2);
    expect(calls[0]?.after).toBeUndefined();
    expect(calls[1]?.after).toEqual(events[0]?.position);
    expect(calls[1]?.filter).toEqual({
      kind: 'stream_prefix',
      prefixes: Object.values(STREAM_PREFIX),
    });
    // And live reads spaced, as a screen needs them
    expect(calls.map((call) => call.readIntervalMs)).toEqual([
      SAGA_FEED_READ_INTERVAL_MS,
      SAGA_FEED_READ_INTERVAL_MS,
    ]);
    // And every event was published once, in order, with its order
    const published = feedWatch.published.flatMap((item) =>
      item.kind === 'saga-event' ? [item.event] : [],
    );
    expect(published.map((event) => event.eventId)).toEqual(events.map((event) => event.id));
    expect(published[0]).toMatchObject({
      orderId: events[0]?.metadata.correlationId,
      streamName: events[0]?.streamName,
      revision: 0,
      occurredAt: '2026-11-30T10:00:00.000Z',
    });
    expect(warnings).toHaveLength(1);
  });

  it('stops at once when closed during the pause after a failure', async () => {
    // Given a store whose subscriptions fail at once, and an hour's pause after a failure
    const { store, calls } = fakeStore({ events: [], failing: [1, 2], failAfter: 0 });
    const feed = createFeed({ capacity: 100 });
    const { log, warned } = watchedLog();
    const following = followSagaEvents({
      store,
      feed,
      log,
      retry: { firstMs: 3_600_000, maxMs: 3_600_000 },
    });
    await warned;

    // When the console closes during the pause
    const closing = Date.now();
    await following.close();

    // Then close() did not wait for the pause, and no other subscription was started
    expect(Date.now() - closing).toBeLessThan(1_000);
    expect(calls).toHaveLength(1);
  });
});
