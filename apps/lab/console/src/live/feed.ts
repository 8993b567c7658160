// The console's memory of what happened lately: saga events, delivery outcomes
// and lab steps in one numbered sequence, the newest `capacity` kept in a ring
// buffer and handed to every live subscriber (the open SSE streams).
import type { FeedItem } from '../api/console.api.js';

/** Omit distributed over a union, so each member keeps its own discriminant. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An item before the feed numbered it. */
export type FeedInput = DistributiveOmit<FeedItem, 'seq'>;

export interface Feed {
  /** Numbers the item, keeps it, and hands it to every subscriber. */
  publish(item: FeedInput): FeedItem;
  /** The listener gets every item published after this call; the returned function ends it. */
  subscribe(listener: (item: FeedItem) => void): () => void;
  /** Kept items, oldest first, optionally one order's only and at most `limit` of the newest. */
  recent(filter: { orderId?: string; limit?: number }): FeedItem[];
  readonly subscribers: number;
}

/** The order an item belongs to, when it names one. */
export function orderIdOf(item: FeedItem | FeedInput): string | null {
  switch (item.kind) {
    case 'saga-event':
      return item.event.orderId;
    case 'delivery':
      return item.delivery.orderId;
    case 'lab-step':
      return item.step.orderId;
  }
}

/**
 * What makes an item the same fact however it reached the stream: catch-up
 * items read from the store or the journals carry seq 0, so the sequence
 * number cannot tell that the feed's copy of them is a repeat.
 */
export function feedItemKey(item: FeedItem): string {
  switch (item.kind) {
    case 'saga-event':
      return `saga:${item.event.eventId}`;
    case 'lab-step':
      return `lab:${item.step.source}:${String(item.step.id)}`;
    case 'delivery': {
      const { service, pid, consumer, messageId, retryCount, outcome, at } = item.delivery;
      return `delivery:${JSON.stringify([service, pid, consumer, messageId, retryCount, outcome, at])}`;
    }
  }
}

function numbered(item: FeedInput, seq: number): FeedItem {
  switch (item.kind) {
    case 'saga-event':
      return { kind: 'saga-event', seq, event: item.event };
    case 'delivery':
      return { kind: 'delivery', seq, delivery: item.delivery };
    case 'lab-step':
      return { kind: 'lab-step', seq, step: item.step };
  }
}

/**
 * @example
 * const feed = createFeed({ capacity: 5_000 });
 * const stop = feed.subscribe((item) => channel.send(item, { id: item.seq }));
 * feed.publish({ kind: 'saga-event', event });
 */
export function createFeed(options: { capacity: number }): Feed {
  const { capacity } = options;
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new Error(`A feed needs a positive capacity, not ${String(capacity)}.`);
  }
  const ring: (FeedItem | undefined)[] = new Array<FeedItem | undefined>(capacity);
  const listeners = new Set<(item: FeedItem) => void>();
  let lastSeq = 0;

  const kept = (): FeedItem[] => {
    const first = Math.max(1, lastSeq - capacity + 1);
    const items: FeedItem[] = [];
    for (let seq = first; seq <= lastSeq; seq += 1) {
      const item = ring[seq % capacity];
      if (item !== undefined) items.push(item);
    }
    return items;
  };

  return {
    publish(input) {
      lastSeq += 1;
      const item = numbered(input, lastSeq);
      ring[lastSeq % capacity] = item;
      // A copy: a listener that unsubscribes while being called must not skip another.
      for (const listener of [...listeners]) listener(item);
      return item;
    },
    subscribe(listener) {
      // A wrapper per call, so the same function subscribed twice is two subscriptions.
      const entry = (item: FeedItem): void => {
        listener(item);
      };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    recent(filter) {
      const { orderId, limit } = filter;
      const items =
        orderId === undefined ? kept() : kept().filter((item) => orderIdOf(item) === orderId);
      return limit === undefined ? items : items.slice(Math.max(0, items.length - limit));
    },
    get subscribers() {
      return listeners.size;
    },
  };
}
