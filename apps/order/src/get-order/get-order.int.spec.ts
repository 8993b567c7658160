// GET /orders/:orderId: the order folded from its stream, or 404.
import type { OrderEvent } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendOrderEvents } from '../adapters/eventStore/order-stream.js';
import { orderPlaced, paymentRequested } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';

const env = await createOrderTestEnv();

/** An order whose stream holds `history`, as the saga would have written it. */
async function orderWith(history: (orderId: string) => OrderEvent[]): Promise<string> {
  const orderId = randomUUID();
  await appendOrderEvents(env.store, {
    orderId,
    events: history(orderId),
    expectedRevision: 'no_stream',
    causeId: randomUUID(),
  });
  return orderId;
}

describe('GET /orders/:orderId', () => {
  it('answers with the order and its timeline', async () => {
    const orderId = await orderWith((id) => [orderPlaced(id), paymentRequested(id)]);

    const response = await env.app.inject({ method: 'GET', url: `/orders/${orderId}` });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      orderId,
      status: 'awaiting_payment',
      version: 1,
      timeline: [
        expect.objectContaining({ type: 'OrderPlaced', version: 0 }),
        expect.objectContaining({ type: 'OrderPaymentRequested', version: 1 }),
      ],
    });
  });

  it('answers an unknown order with 404 ORDER_NOT_FOUND', async () => {
    const response = await env.app.inject({ method: 'GET', url: `/orders/${randomUUID()}` });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });
});
