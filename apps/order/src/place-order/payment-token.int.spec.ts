// POST /orders and the payment token: a token in no card format is the
// client's mistake, refused before anything starts; a well-formed token the
// processor does not know is accepted and ends as a declined payment (the saga).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_EMAIL, ITEMS } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';

const env = await createOrderTestEnv();

const post = (idempotencyKey: string, paymentToken: string) =>
  env.app.inject({
    method: 'POST',
    url: '/orders',
    headers: { 'idempotency-key': idempotencyKey },
    payload: { customerEmail: CUSTOMER_EMAIL, items: ITEMS, paymentToken },
  });

describe('POST /orders with a payment token', () => {
  it.each(['4111 1111 1111 1111', 'TOK_APPROVE', 'tok_', 'approve'])(
    'refuses %j with 422 PAYMENT_TOKEN_MALFORMED, and claims no key',
    async (token) => {
      const key = randomUUID();

      const response = await post(key, token);

      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        status: 422,
        code: 'PAYMENT_TOKEN_MALFORMED',
        detail: expect.stringContaining('tok_approve') as unknown,
      });
      const claimed = await env.db
        .selectFrom('order_request')
        .select('order_id')
        .where('idempotency_key', '=', key)
        .execute();
      expect(claimed).toEqual([]);
    },
  );

  it('accepts a well-formed token the processor may not know (tok_aprove): the processor decides', async () => {
    const response = await post(randomUUID(), 'tok_aprove');

    expect(response.statusCode).toBe(201);
  });
});
