// The store loaders against a real embedded event store: every event read
// across pages, and parked messages with their group and reason.
import { randomUUID } from 'node:crypto';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadParked, readEveryEvent } from './load-store.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const store = createPostgresEventStore({ url, pollIntervalMs: 50 });
afterAll(() => store.close());

const newEvents = (count: number, correlationId: string) =>
  Array.from({ length: count }, (_, index) => ({
    id: randomUUID(),
    type: 'ThingHappened',
    data: { index },
    metadata: { correlationId },
  }));

describe('readEveryEvent', () => {
  it('given more events than one page, when read, then every event comes once, in global order', async () => {
    const orderId = randomUUID();
    const appended = [...newEvents(5, orderId), ...newEvents(2, orderId)];
    await store.appendToStream(`order-${orderId}`, appended.slice(0, 5), {
      expectedRevision: 'no_stream',
    });
    await store.appendToStream(`payment-${orderId}`, appended.slice(5), {
      expectedRevision: 'no_stream',
    });

    const events = await readEveryEvent(store, 3);

    expect(events.map((event) => event.id)).toEqual(appended.map((event) => event.id));
  });
});

describe('loadParked', () => {
  it('given a parked message, when loaded, then it names its group, type, order and reason; a missing group has none', async () => {
    const orderId = randomUUID();
    const stream = `parked-${orderId}`;
    const group = `invariants-${randomUUID().slice(0, 8)}`;
    await store.createSubscriptionGroup(group, {
      filter: { kind: 'stream_prefix', prefixes: [stream] },
      startFrom: 'start',
    });
    const [event] = newEvents(1, orderId);
    if (event === undefined) throw new Error('no event');
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    for await (const delivery of subscription) {
      await delivery.nack('park', 'Invalid ThingHappened payload');
      break;
    }
    await subscription.close();

    const parked = await loadParked(store, [group, 'no-such-group-v1']);

    expect(parked).toEqual([
      {
        group,
        messageId: event.id,
        type: 'ThingHappened',
        orderId,
        reason: 'Invalid ThingHappened payload',
      },
    ]);
  });
});
