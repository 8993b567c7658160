// The embedded catch-up subscription's read interval: live reads are spaced,
// so appends that come sooner after a read wait for the next one; nothing is
// lost, the order holds, and close() is not held up by the wait. The clock is
// only checked from below (at least the interval passed), never from above, so
// a slow machine cannot fail these tests. That a sparse append is read at once
// shows in the saga bench's latency, not here.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { newEvent, uniqueName } from '../testing/contract/harness.js';
import { receive } from '../testing/receiver.js';
import type { EventStoreTables } from './event-store.tables.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);
const store = createPostgresEventStore({ url });
afterAll(() => store.close());

/** A subscription to one fresh prefix, with the receipt time of each event. */
function follow(prefix: string, readIntervalMs: number) {
  const subscribedAt = performance.now();
  const subscription = store.subscribeToAll({
    filter: { kind: 'stream_prefix', prefixes: [prefix] },
    readIntervalMs,
  });
  const receivedAt = new Map<string, number>();
  const events = receive(
    (async function* () {
      for await (const event of subscription) {
        receivedAt.set(event.id, performance.now());
        yield event;
      }
    })(),
  );
  return { subscription, events, subscribedAt, receivedAt };
}

describe('a catch-up subscription with a read interval', () => {
  it('appends that come sooner than the interval after a read wait for the interval; every one arrives, in order', async () => {
    // Given a subscription with a 1.5 s read interval that has read the stored event
    const prefix = uniqueName('spaced');
    const stored = newEvent();
    await store.appendToStream(`${prefix}-1`, [stored], { expectedRevision: 'no_stream' });
    const { subscription, events, subscribedAt, receivedAt } = follow(prefix, 1500);
    expect((await events.next()).id).toBe(stored.id);

    // When two more are appended at once, each in its own transaction
    const second = newEvent();
    const third = newEvent();
    await store.appendToStream(`${prefix}-2`, [second], { expectedRevision: 'no_stream' });
    await store.appendToStream(`${prefix}-3`, [third], { expectedRevision: 'no_stream' });

    // Then both come, in order, and not before the interval after the first read
    // (which came after the subscription was opened)
    expect((await events.atLeast(3)).map((event) => event.id)).toEqual([
      stored.id,
      second.id,
      third.id,
    ]);
    expect((receivedAt.get(second.id) ?? 0) - subscribedAt).toBeGreaterThanOrEqual(1500);
    await subscription.close();
  });

  it('close() during the wait for the interval ends the subscription without waiting it out', async () => {
    // Given a subscription with a minute's interval, woken by an append right after its first read
    const prefix = uniqueName('closing');
    const stored = newEvent();
    await store.appendToStream(`${prefix}-1`, [stored], { expectedRevision: 'no_stream' });
    const { subscription, events } = follow(prefix, 60_000);
    await events.next();
    await store.appendToStream(`${prefix}-2`, [newEvent()], { expectedRevision: 'no_stream' });

    // When it is closed, Then it ends well within the test's timeout (not after the minute)
    await subscription.close();
    await events.ended;
    expect(events.items).toHaveLength(1);
  });
});
