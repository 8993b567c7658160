import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../api/console.api.js';
import {
  EMPTY_TIMELINE,
  feedItemOrderId,
  mergeTimeline,
  splitTimeline,
  timelineKey,
} from './order-timeline.js';

const ORDER_ID = '0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10';

function sagaEvent(seq: number, eventId: string, type: string, occurredAt: string): FeedItem {
  return {
    kind: 'saga-event',
    seq,
    event: {
      eventId,
      orderId: ORDER_ID,
      streamName: `order-${ORDER_ID}`,
      revision: seq,
      type,
      occurredAt,
      data: {},
    },
  };
}

function delivery(
  seq: number,
  overrides: {
    retryCount?: number;
    outcome?: 'applied' | 'duplicate' | 'retryable_failure';
    settlement?: 'ack' | 'retry';
  },
): FeedItem {
  return {
    kind: 'delivery',
    seq,
    delivery: {
      service: 'inventory-2',
      pid: 4242,
      consumer: 'inventory-reservation-v1',
      messageId: 'm-1',
      eventType: 'OrderPlaced',
      streamName: `order-${ORDER_ID}`,
      orderId: ORDER_ID,
      retryCount: overrides.retryCount ?? 0,
      outcome: overrides.outcome ?? 'applied',
      settlement: overrides.settlement ?? 'ack',
      durationMs: 3.5,
      reason: null,
      at: '2026-11-30T10:00:00.020Z',
    },
  };
}

function labStep(seq: number, id: number): FeedItem {
  return {
    kind: 'lab-step',
    seq,
    step: {
      source: 'payment',
      id,
      at: '2026-11-30T10:00:00.030Z',
      service: 'payment',
      pid: 77,
      kind: 'crash',
      consumer: 'payment-request-v1',
      messageId: 'm-2',
      eventType: 'PaymentRequested',
      orderId: ORDER_ID,
      detail: { point: 'after-commit' },
    },
  };
}

describe('order timeline', () => {
  it('given one item of each kind, when keyed, then each key names what identifies that item', () => {
    // Given a saga event, a delivery handed back after a retryable failure and a lab step
    const event = sagaEvent(1, 'e-1', 'OrderPlaced', '2026-11-30T10:00:00.000Z');
    const handedBack = delivery(2, {
      retryCount: 1,
      outcome: 'retryable_failure',
      settlement: 'retry',
    });
    const step = labStep(3, 17);

    // When keyed
    // Then a delivery's key holds its attempt, its settlement and its outcome
    expect(timelineKey(event)).toBe('saga:e-1');
    expect(timelineKey(handedBack)).toBe(
      'delivery:inventory-2:4242:inventory-reservation-v1:m-1:1:retry:retryable_failure',
    );
    expect(timelineKey(step)).toBe('lab:payment:17');
  });

  it('given two lines of one attempt that differ only in their settlement, when merged, then each is a row of its own', () => {
    // Given an applied delivery handed back, and one acked
    const handedBack = delivery(1, { retryCount: 0, outcome: 'applied', settlement: 'retry' });
    const acked = delivery(2, { retryCount: 0, outcome: 'applied', settlement: 'ack' });

    // When merged
    const timeline = mergeTimeline(EMPTY_TIMELINE, [handedBack, acked]);

    // Then neither hides the other
    expect(timeline.rows.map((row) => row.key)).toEqual([
      'delivery:inventory-2:4242:inventory-reservation-v1:m-1:0:retry:applied',
      'delivery:inventory-2:4242:inventory-reservation-v1:m-1:0:ack:applied',
    ]);
  });

  it('given items arriving out of order, when merged, then rows are sorted by time and then by sequence', () => {
    const placed = sagaEvent(5, 'e-1', 'OrderPlaced', '2026-11-30T10:00:00.000Z');
    const reservedEarlier = sagaEvent(9, 'e-3', 'InventoryReserved', '2026-11-30T10:00:00.010Z');
    const reservedSameTime = sagaEvent(
      7,
      'e-2',
      'InventoryReservationRequested',
      '2026-11-30T10:00:00.010Z',
    );

    const timeline = mergeTimeline(EMPTY_TIMELINE, [reservedEarlier, placed, reservedSameTime]);

    expect(timeline.rows.map((row) => row.key)).toEqual(['saga:e-1', 'saga:e-2', 'saga:e-3']);
  });

  it('given a timeline, when the stream sends its whole catch-up again after a reconnect, then no row is added twice', () => {
    const items = [
      sagaEvent(1, 'e-1', 'OrderPlaced', '2026-11-30T10:00:00.000Z'),
      delivery(2, {}),
      labStep(3, 17),
    ];
    const first = mergeTimeline(EMPTY_TIMELINE, items);

    const again = mergeTimeline(first, items);

    expect(again).toBe(first);
    expect(again.rows).toHaveLength(3);
  });

  it('given a delivery that was retried and then applied, when merged, then both attempts are rows of their own', () => {
    // Given the handed-back attempt, the applied one, and the applied one again (a reconnect)
    // When merged
    const timeline = mergeTimeline(EMPTY_TIMELINE, [
      delivery(1, { retryCount: 0, outcome: 'retryable_failure', settlement: 'retry' }),
      delivery(2, { retryCount: 1, outcome: 'applied' }),
      delivery(3, { retryCount: 1, outcome: 'applied' }),
    ]);

    // Then one row per attempt
    expect(timeline.rows).toHaveLength(2);
  });

  it('given saga events, outcomes and lab steps, when split, then lab steps are kept apart from the flow', () => {
    const timeline = mergeTimeline(EMPTY_TIMELINE, [
      sagaEvent(1, 'e-1', 'OrderPlaced', '2026-11-30T10:00:00.000Z'),
      delivery(2, {}),
      labStep(3, 17),
    ]);

    const { flow, labSteps } = splitTimeline(timeline);

    expect(flow.map((row) => row.kind)).toEqual(['saga-event', 'delivery']);
    expect(labSteps.map((row) => row.key)).toEqual(['lab:payment:17']);
  });

  it('given any feed item, when asked for its order, then the id it carries is returned', () => {
    expect(feedItemOrderId(delivery(1, {}))).toBe(ORDER_ID);
    expect(feedItemOrderId(labStep(2, 1))).toBe(ORDER_ID);
  });
});
