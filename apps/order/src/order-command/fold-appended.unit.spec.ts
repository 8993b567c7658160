import type { OrderEvent } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import { evolve } from '../domain/order.evolve.js';
import { decide } from '../domain/order.decide.js';
import { initialOrderState } from '../domain/order.state.js';
import {
  cancellationRequested,
  LATER,
  orderCancelled,
  orderPlaced,
  paymentRequested,
} from '../domain/testing/order.fixtures.js';
import { foldAppended } from './fold-appended.js';
import { orderEventId } from '../adapters/eventStore/order-stream.js';
import { occurredAtOf, type LoadedOrder } from '../domain/loaded-order.js';

const ORDER_ID = '0b7c3c1e-4f7a-4e55-9a0f-6d2b1c9e8a01';
const position = { commit: 10n, prepare: 10n };

/** Given: an order loaded with these events, as loadOrder would return it. */
function loadedWith(events: OrderEvent[]): LoadedOrder {
  return {
    state: events.reduce(evolve, initialOrderState()),
    revision: events.length === 0 ? 'no_stream' : BigInt(events.length - 1),
    timeline: events.map((event, index) => ({
      eventId: `stored-${String(index)}`,
      type: event.type,
      version: index,
      occurredAt: occurredAtOf(event),
    })),
    traceId: undefined,
    traceparent: undefined,
  };
}

describe('foldAppended', () => {
  it('given no stream, when OrderPlaced is appended, then the order is placed at revision 0', () => {
    const placed = orderPlaced(ORDER_ID);

    const next = foldAppended(loadedWith([]), {
      events: [placed],
      causeId: `PlaceOrder:${ORDER_ID}`,
      appended: { nextExpectedRevision: 0n, position },
    });

    expect(next).toEqual({
      state: evolve(initialOrderState(), placed),
      revision: 0n,
      timeline: [
        {
          eventId: orderEventId(`PlaceOrder:${ORDER_ID}`, 0),
          type: 'OrderPlaced',
          version: 0,
          occurredAt: placed.data.placedAt,
        },
      ],
    });
  });

  it('given an order at revision 1, when two events are appended, then they take revisions 2 and 3 in order', () => {
    const loaded = loadedWith([orderPlaced(ORDER_ID), paymentRequested(ORDER_ID)]);
    const appended = [
      cancellationRequested(ORDER_ID, 'customer_request'),
      orderCancelled(ORDER_ID, 'customer_request'),
    ];

    const next = foldAppended(loaded, {
      events: appended,
      causeId: 'cause',
      appended: { nextExpectedRevision: 3n, position },
    });

    expect(next.revision).toBe(3n);
    expect(next.state).toMatchObject({ status: 'cancelled' });
    expect(next.state).toEqual(appended.reduce(evolve, loaded.state));
    expect(next.timeline.slice(0, 2)).toEqual(loaded.timeline);
    expect(next.timeline.slice(2)).toEqual([
      expect.objectContaining({ eventId: orderEventId('cause', 0), version: 2 }),
      expect.objectContaining({ eventId: orderEventId('cause', 1), version: 3 }),
    ]);
  });

  it('given no events, then the loaded order is returned as it is', () => {
    const loaded = loadedWith([orderPlaced(ORDER_ID)]);

    const next = foldAppended(loaded, {
      events: [],
      causeId: 'cause',
      appended: { nextExpectedRevision: 0n, position },
    });

    expect(next).toBe(loaded);
  });

  it('given an order awaiting payment, when CancelOrder is decided and appended at revision 2, then the order is cancelling at revision 2 with the request last in its timeline', () => {
    const loaded = loadedWith([orderPlaced(ORDER_ID), paymentRequested(ORDER_ID)]);
    const decision = decide(
      { type: 'CancelOrder', data: { orderId: ORDER_ID, now: LATER } },
      loaded.state,
    );
    if (decision.outcome !== 'accepted') throw new Error('CancelOrder was refused');

    const next = foldAppended(loaded, {
      events: decision.events,
      causeId: `CancelOrder:${ORDER_ID}`,
      appended: { nextExpectedRevision: 2n, position },
    });

    expect(next.state).toMatchObject({
      status: 'cancelling',
      cancellationReason: 'customer_request',
    });
    expect(next.revision).toBe(2n);
    expect(next.timeline.at(-1)).toEqual({
      eventId: orderEventId(`CancelOrder:${ORDER_ID}`, 0),
      type: 'OrderCancellationRequested',
      version: 2,
      occurredAt: LATER.toISOString(),
    });
  });
});
