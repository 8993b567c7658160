// The embedded catch-up subscription's read interval: live reads are spaced,
// so appends that come sooner after a read wait for the next one; nothing is
// lost, the order holds, a backlog is read at full speed, and close() is not
// held up by the wait. Waits are checked from below (at least the interval
// passed); from above only against margins of seconds, where a test would
// otherwise wait out a 30 s or one-minute interval. That a sparse append is
// read at once shows in the saga bench's latency, not here.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { newEvent, newEvents, uniqueName } from '@effectively-once/event-store/testing';
import { receive } from '@effectively-once/event-store/testing';
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

  it('reads a backlog page after page without the interval: only live reads are spaced', async () => {
    // Given more stored events than two pages (500 each) hold
    const prefix = uniqueName('backlog');
    const stored = newEvents(1_001);
    await store.appendToStream(`${prefix}-1`, stored, { expectedRevision: 'no_stream' });

    // When a subscription with a half-minute interval starts from the beginning,
    // Then all of them come well before a second read could have been spaced
    const { subscription, events } = follow(prefix, 30_000);
    const received = await events.atLeast(stored.length, 20_000);
    expect(received.map((event) => event.id)).toEqual(stored.map((event) => event.id));
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

    // When it is closed, Then it ends without waiting out the minute
    const closing = performance.now();
    await subscription.close();
    await events.ended;
    expect(performance.now() - closing).toBeLessThan(5_000);
    expect(events.items).toHaveLength(1);
  });
});
