import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../api/console.api.js';
import { createFeed, orderIdOf, type FeedInput } from './feed.js';

function sagaEvent(orderId: string | null, type = 'OrderPlaced'): FeedInput {
  return {
    kind: 'saga-event',
    event: {
      eventId: `${type}-${String(orderId)}`,
      orderId,
      streamName: `order-${String(orderId)}`,
      revision: 0,
      type,
      occurredAt: '2026-11-30T10:00:00.000Z',
      data: {},
    },
  };
}

function delivery(orderId: string): FeedInput {
  return {
    kind: 'delivery',
    delivery: {
      service: 'payment',
      pid: 42,
      consumer: 'payment-authorization-v1',
      messageId: 'm-1',
      eventType: 'InventoryReserved',
      streamName: `inventory-${orderId}`,
      orderId,
      retryCount: 0,
      outcome: 'applied',
      settlement: 'ack',
      durationMs: 3.5,
      reason: null,
      at: '2026-11-30T10:00:01.000Z',
    },
  };
}

describe('createFeed', () => {
  it('numbers items from 1 and keeps them oldest first', () => {
    // Given an empty feed
    const feed = createFeed({ capacity: 10 });

    // When three items are published
    const published = [sagaEvent('a'), delivery('a'), sagaEvent('b')].map((item) =>
      feed.publish(item),
    );

    // Then they carry 1, 2, 3 and come back in that order
    expect(published.map((item) => item.seq)).toEqual([1, 2, 3]);
    expect(feed.recent({})).toEqual(published);
  });

  it('forgets the oldest items beyond its capacity', () => {
    // Given a feed of capacity 3
    const feed = createFeed({ capacity: 3 });

    // When five items are published
    for (const orderId of ['a', 'b', 'c', 'd', 'e']) feed.publish(sagaEvent(orderId));

    // Then only the last three are kept, oldest first
    expect(feed.recent({}).map((item) => [item.seq, orderIdOf(item)])).toEqual([
      [3, 'c'],
      [4, 'd'],
      [5, 'e'],
    ]);
  });

  it('filters by order and limits to the newest', () => {
    // Given items of two orders, and one of none
    const feed = createFeed({ capacity: 100 });
    feed.publish(sagaEvent('a', 'OrderPlaced'));
    feed.publish(sagaEvent('b', 'OrderPlaced'));
    feed.publish(delivery('a'));
    feed.publish(sagaEvent(null, 'SomethingElse'));
    feed.publish(sagaEvent('a', 'OrderConfirmed'));

    // When one order's items are asked for, all and the newest two
    const all = feed.recent({ orderId: 'a' });
    const newest = feed.recent({ orderId: 'a', limit: 2 });

    // Then only that order's come back, oldest first
    expect(all.map((item) => item.seq)).toEqual([1, 3, 5]);
    expect(newest.map((item) => item.seq)).toEqual([3, 5]);
    expect(feed.recent({ limit: 1 }).map((item) => item.seq)).toEqual([5]);
  });

  it('hands each new item to every subscriber until it unsubscribes', () => {
    // Given two subscribers
    const feed = createFeed({ capacity: 10 });
    const first: FeedItem[] = [];
    const second: FeedItem[] = [];
    const stopFirst = feed.subscribe((item) => first.push(item));
    feed.subscribe((item) => second.push(item));
    expect(feed.subscribers).toBe(2);

    // When one item is published, the first unsubscribes, and another is published
    feed.publish(sagaEvent('a'));
    stopFirst();
    feed.publish(sagaEvent('b'));

    // Then the first saw one, the second both
    expect(first.map((item) => item.seq)).toEqual([1]);
    expect(second.map((item) => item.seq)).toEqual([1, 2]);
    expect(feed.subscribers).toBe(1);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => createFeed({ capacity: 0 })).toThrow(/positive capacity/);
  });
});

describe('orderIdOf', () => {
  it('reads the order of each kind of item', () => {
    expect(orderIdOf(sagaEvent('a'))).toBe('a');
    expect(orderIdOf(delivery('b'))).toBe('b');
    expect(orderIdOf(sagaEvent(null))).toBeNull();
  });
});
