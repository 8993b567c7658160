import type { OrderEvent } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import type { LoadedOrder } from '../domain/loaded-order.js';
import { evolveAll } from '../domain/order.evolve.js';
import {
  cancellationRequested,
  orderPlaced,
  paymentRequested,
  PLACED_AT,
} from '../domain/testing/order.fixtures.js';
import { summaryOf } from './order-summary.projection.js';

const ORDER_ID = '0b7c3c1e-4f7a-4e55-9a0f-6d2b1c9e8a01';

/** Given: an order whose stream holds these events. */
const loadedWith = (events: OrderEvent[]): LoadedOrder => ({
  state: evolveAll(events),
  revision: events.length === 0 ? 'no_stream' : BigInt(events.length - 1),
  timeline: [],
  traceId: undefined,
  traceparent: undefined,
});

describe('summaryOf', () => {
  it('given no stream, then there is no summary', () => {
    expect(summaryOf(loadedWith([]))).toBeUndefined();
  });

  it('given a placed, paid-for and cancelled order, then its summary is cancelling at revision 2, placed when it was placed', () => {
    const order = loadedWith([
      orderPlaced(ORDER_ID),
      paymentRequested(ORDER_ID),
      cancellationRequested(ORDER_ID, 'customer_request'),
    ]);

    expect(summaryOf(order)).toEqual({
      order_id: ORDER_ID,
      status: 'cancelling',
      version: 2,
      placed_at: PLACED_AT,
    });
  });
});
