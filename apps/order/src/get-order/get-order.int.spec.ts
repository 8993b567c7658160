// GET /orders/:orderId: the order folded from its stream, or 404.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderPlaced, paymentRequested } from '../domain/testing/order.fixtures.js';
import { orderWith } from '../testing/order-history.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';

const env = await createOrderTestEnv();

describe('GET /orders/:orderId', () => {
  it('answers with the order and its timeline', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id), paymentRequested(id)]);

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
