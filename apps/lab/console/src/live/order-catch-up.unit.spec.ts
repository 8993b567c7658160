import { describe, expect, it } from 'vitest';
import type { FeedItem, LabStepView, SagaEventView } from '../api/console.api.js';
import { mergeOrderCatchUp } from './order-catch-up.js';

function event(eventId: string): SagaEventView {
  return {
    eventId,
    orderId: 'o1',
    streamName: 'order-o1',
    revision: 0,
    type: 'OrderPlaced',
    occurredAt: '2026-11-30T10:00:00.000Z',
    data: {},
  };
}

function step(id: number): LabStepView {
  return {
    source: 'inventory',
    id,
    at: '2026-11-30T10:00:00.500Z',
    service: 'inventory',
    pid: 7,
    kind: 'claimed',
    consumer: 'inventory-demand-v1',
    messageId: 'e1',
    eventType: 'OrderPlaced',
    orderId: 'o1',
    detail: {},
  };
}

describe('mergeOrderCatchUp', () => {
  it('adds what only the store and the journals know, with seq 0, and keeps the feed items as they are', () => {
    // Given a feed that remembers e2 and lab step 2, and a store and journal that know more
    const recent: FeedItem[] = [
      { kind: 'saga-event', seq: 11, event: event('e2') },
      { kind: 'lab-step', seq: 12, step: step(2) },
    ];

    // When they are merged
    const merged = mergeOrderCatchUp({
      events: [event('e1'), event('e2')],
      labSteps: [step(1), step(2)],
      recent,
    });

    // Then each fact is there once, in the store's order, with the feed's seq where it has one
    expect(merged).toEqual([
      { kind: 'saga-event', seq: 0, event: event('e1') },
      { kind: 'saga-event', seq: 11, event: event('e2') },
      { kind: 'lab-step', seq: 0, step: step(1) },
      { kind: 'lab-step', seq: 12, step: step(2) },
    ]);
  });

  it('given a feed that has published the newer of two events but not yet the older, keeps global order', () => {
    // Given the $all follower published e2 while e1 (older) is not in the feed yet
    const recent: FeedItem[] = [{ kind: 'saga-event', seq: 5, event: event('e2') }];

    // When merged with the store's read, which has both in global order
    const merged = mergeOrderCatchUp({ events: [event('e1'), event('e2')], labSteps: [], recent });

    // Then e1 comes first
    expect(merged.map((item) => (item.kind === 'saga-event' ? item.event.eventId : ''))).toEqual([
      'e1',
      'e2',
    ]);
  });

  it('given feed items the store did not read (outcomes, newer events), puts them after', () => {
    // Given an outcome-like item only the feed holds
    const newer: FeedItem = { kind: 'saga-event', seq: 9, event: event('e3') };

    // When merged
    const merged = mergeOrderCatchUp({ events: [event('e1')], labSteps: [], recent: [newer] });

    // Then it follows the store's events
    expect(merged).toEqual([{ kind: 'saga-event', seq: 0, event: event('e1') }, newer]);
  });
});
