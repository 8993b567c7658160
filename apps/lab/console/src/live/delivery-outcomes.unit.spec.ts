import { EventEmitter } from 'node:events';
import type { DeliveryOutcomeMessage } from '@effectively-once/stack-protocol';
import { describe, expect, it } from 'vitest';
import { listenForDeliveryOutcomes } from './delivery-outcomes.js';
import { createFeed } from './feed.js';

const outcome: DeliveryOutcomeMessage = {
  type: 'delivery-outcome',
  service: 'inventory-2',
  pid: 4242,
  at: '2026-11-30T10:00:00.000Z',
  messageId: '1a2b',
  consumer: 'inventory-demand-v1',
  eventType: 'OrderPlaced',
  streamName: 'order-o1',
  orderId: 'o1',
  traceId: 'o1',
  retryCount: 1,
  outcome: 'duplicate',
  settlement: 'ack',
  durationMs: 2.25,
  reason: null,
};

function fakeChannel(connected: boolean) {
  return Object.assign(new EventEmitter(), { connected });
}

describe('listenForDeliveryOutcomes', () => {
  it('publishes each outcome message of the channel as a delivery item', () => {
    // Given a feed and a connected channel
    const feed = createFeed({ capacity: 10 });
    const channel = fakeChannel(true);
    const outcomes = listenForDeliveryOutcomes({ feed, channel });

    // When the supervisor sends an outcome, something else, a broken outcome and one without its settlement
    channel.emit('message', outcome);
    channel.emit('message', { type: 'ready' });
    channel.emit('message', { ...outcome, outcome: 'exploded' });
    channel.emit('message', { ...outcome, settlement: undefined });

    // Then the feed has the one outcome, without the IPC envelope's type and trace id
    expect(outcomes.source).toBe('delivery-log');
    expect(feed.recent({})).toEqual([
      {
        kind: 'delivery',
        seq: 1,
        delivery: {
          service: 'inventory-2',
          pid: 4242,
          consumer: 'inventory-demand-v1',
          messageId: '1a2b',
          eventType: 'OrderPlaced',
          streamName: 'order-o1',
          orderId: 'o1',
          retryCount: 1,
          outcome: 'duplicate',
          settlement: 'ack',
          durationMs: 2.25,
          reason: null,
          at: '2026-11-30T10:00:00.000Z',
        },
      },
    ]);
  });

  it('stops listening when closed', () => {
    const feed = createFeed({ capacity: 10 });
    const channel = fakeChannel(true);
    const outcomes = listenForDeliveryOutcomes({ feed, channel });

    outcomes.close();
    channel.emit('message', outcome);

    expect(channel.listenerCount('message')).toBe(0);
    expect(feed.recent({})).toEqual([]);
  });

  it('says outcomes are unavailable without a channel (started without the supervisor)', () => {
    const channel = fakeChannel(false);

    const outcomes = listenForDeliveryOutcomes({ feed: createFeed({ capacity: 10 }), channel });

    expect(outcomes.source).toBe('unavailable');
    expect(channel.listenerCount('message')).toBe(0);
  });
});
