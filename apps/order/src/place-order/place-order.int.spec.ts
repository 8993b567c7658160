// POST /orders and its Idempotency-Key: one key, one order, one response.
import { orderStream, type PlaceOrderRequest } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_EMAIL, ITEMS } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { recordStreamReads } from '../testing/stream-reads.js';
import { placeOrder } from './place-order.handler.js';

const env = await createOrderTestEnv();
const body: PlaceOrderRequest = {
  customerEmail: CUSTOMER_EMAIL,
  items: ITEMS,
  paymentToken: 'tok_approve',
};

const post = (idempotencyKey: string | undefined, payload: object = body) =>
  env.app.inject({
    method: 'POST',
    url: '/orders',
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
    payload,
  });

describe('POST /orders', () => {
  it('places the order: 201, its resource, and a Location', async () => {
    const response = await post(randomUUID());

    expect(response.statusCode).toBe(201);
    const order = response.json<{ orderId: string }>();
    expect(order).toMatchObject({
      status: 'awaiting_inventory',
      version: 0,
      customerEmail: CUSTOMER_EMAIL,
      items: ITEMS,
      amountCents: 3_000,
      cancellationReason: null,
      timeline: [expect.objectContaining({ type: 'OrderPlaced', version: 0 })],
    });
    expect(response.headers.location).toBe(`/orders/${order.orderId}`);
  });

  it('answers with the order as placed, folded from its OrderPlaced without reading the stream back: what GET then reads', async () => {
    const { store, reads } = recordStreamReads(env.store);

    const { resource } = await placeOrder(
      { ...env, store },
      { idempotencyKey: randomUUID(), body },
    );

    expect(reads).toEqual([]);
    const read = await env.app.inject({ method: 'GET', url: `/orders/${resource.orderId}` });
    expect(read.json()).toEqual(resource);
  });

  it('answers a repeat with the same key and body with the first response, and places one order', async () => {
    const key = randomUUID();

    const first = await post(key);
    const second = await post(key, {
      paymentToken: body.paymentToken,
      items: ITEMS,
      customerEmail: CUSTOMER_EMAIL,
    });

    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const { orderId } = first.json<{ orderId: string }>();
    expect(await env.store.readStream(orderStream(orderId))).toHaveLength(1);
    const rows = await env.db
      .selectFrom('order_request')
      .selectAll()
      .where('idempotency_key', '=', key)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('places one order when two requests with one key run at once', async () => {
    const key = randomUUID();

    const [first, second] = await Promise.all([post(key), post(key)]);

    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json()).toEqual(first.json());
    const rows = await env.db
      .selectFrom('order_request')
      .selectAll()
      .where('idempotency_key', '=', key)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('marks every answer but the first as replayed when requests with one key run at once', async () => {
    const key = randomUUID();

    const responses = await Promise.all(Array.from({ length: 6 }, () => post(key)));

    expect(responses.map((response) => response.statusCode)).toEqual(Array(6).fill(201));
    const replayed = responses.filter((r) => r.headers['idempotent-replayed'] === 'true');
    expect(replayed).toHaveLength(5);
    expect(new Set(responses.map((response) => response.body)).size).toBe(1);
  });

  it('refuses the same key with another body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    await post(key);

    const response = await post(key, { ...body, paymentToken: 'tok_decline' });

    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422 });
  });

  it('refuses a request without a key: 400 IDEMPOTENCY_KEY_REQUIRED, and places nothing', async () => {
    const before = await env.db.selectFrom('order_request').select('order_id').execute();

    const response = await post(undefined);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
    expect(await env.db.selectFrom('order_request').select('order_id').execute()).toHaveLength(
      before.length,
    );
  });

  it('refuses an invalid body with 400 VALIDATION_FAILED', async () => {
    const response = await post(randomUUID(), { ...body, items: [] });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('fixes the deadlines from the placement time, in the order and in its timer rows', async () => {
    const response = await post(randomUUID());

    const order = response.json<{ orderId: string; placedAt: string; deadlines: unknown }>();
    const placedAt = Date.parse(order.placedAt);
    const at = (ms: number) => new Date(placedAt + ms).toISOString();
    expect(order.deadlines).toEqual({
      inventoryBy: at(30_000),
      paymentBy: at(120_000),
      completeBy: at(300_000),
    });
    const rows = await env.db
      .selectFrom('order_deadline')
      .select(['deadline', 'due_at', 'fired_at'])
      .where('order_id', '=', order.orderId)
      .orderBy('due_at')
      .execute();
    expect(rows).toEqual([
      { deadline: 'inventory', due_at: new Date(at(30_000)), fired_at: null },
      { deadline: 'payment', due_at: new Date(at(120_000)), fired_at: null },
      { deadline: 'complete', due_at: new Date(at(300_000)), fired_at: null },
    ]);
  });

  it('writes one set of timers when two requests with one key run at once', async () => {
    const key = randomUUID();

    const [first] = await Promise.all([post(key), post(key)]);

    const { orderId } = first.json<{ orderId: string }>();
    const rows = await env.db
      .selectFrom('order_deadline')
      .select('deadline')
      .where('order_id', '=', orderId)
      .execute();
    expect(rows).toHaveLength(3);
  });

  it('writes no timer for a request it refuses', async () => {
    const before = await env.db.selectFrom('order_deadline').select('order_id').execute();

    await post(undefined);
    await post(randomUUID(), { ...body, items: [] });

    expect(await env.db.selectFrom('order_deadline').select('order_id').execute()).toHaveLength(
      before.length,
    );
  });
});
