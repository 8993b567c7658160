import { orderStream } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderPlaced, paymentRequested } from '../../domain/testing/order.fixtures.js';
import { createOrderTestEnv } from '../../testing/order-test-env.js';
import { appendOrderEvents, loadOrder, orderEventId } from './order-stream.js';
import { commandCause } from '../../domain/loaded-order.js';

const { store } = await createOrderTestEnv();
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('the order stream', () => {
  it('loads an order that does not exist as not placed, with no stream', async () => {
    const loaded = await loadOrder(store, randomUUID());

    expect(loaded).toEqual({
      state: { status: 'not_placed' },
      revision: 'no_stream',
      timeline: [],
    });
  });

  it('appends with ids and metadata derived from the cause, and loads the folded state', async () => {
    const orderId = randomUUID();
    const causeId = commandCause('PlaceOrder', orderId);

    await appendOrderEvents(store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
      causeId,
      traceparent: TRACEPARENT,
    });

    const [recorded] = await store.readStream(orderStream(orderId));
    expect(recorded?.id).toBe(orderEventId(causeId, 0));
    expect(recorded?.metadata).toEqual({
      correlationId: orderId,
      causationId: causeId,
      schemaVersion: 1,
      traceparent: TRACEPARENT,
    });
    const loaded = await loadOrder(store, orderId);
    expect(loaded.state.status).toBe('awaiting_inventory');
    expect(loaded.revision).toBe(0n);
    expect(loaded.timeline).toEqual([
      expect.objectContaining({
        eventId: orderEventId(causeId, 0),
        type: 'OrderPlaced',
        version: 0,
      }),
    ]);
  });

  it('writes nothing when the same cause appends the same events again at the same revision', async () => {
    const orderId = randomUUID();
    await appendOrderEvents(store, {
      orderId,
      events: [orderPlaced(orderId)],
      expectedRevision: 'no_stream',
      causeId: commandCause('PlaceOrder', orderId),
    });
    const step = {
      orderId,
      events: [paymentRequested(orderId)],
      expectedRevision: 0n,
      causeId: randomUUID(),
    };

    await appendOrderEvents(store, step);
    await appendOrderEvents(store, step);

    const loaded = await loadOrder(store, orderId);
    expect(loaded.revision).toBe(1n);
    expect(loaded.state.status).toBe('awaiting_payment');
  });

  it('gives different causes different ids, and one cause different ids per index', () => {
    const causeId = randomUUID();

    expect(
      new Set([orderEventId(causeId, 0), orderEventId(causeId, 1), orderEventId(randomUUID(), 0)])
        .size,
    ).toBe(3);
    expect(orderEventId(causeId, 0)).toBe(orderEventId(causeId, 0));
  });
});
