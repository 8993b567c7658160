// GET /orders: newest first, in pages joined by an opaque cursor.
import type { OrderList } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_EMAIL, ITEMS } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { claimOrderRequest } from '../adapters/postgres/order-request.repository.js';
import { countQueries } from '../testing/query-count.js';
import { recordStreamReads } from '../testing/stream-reads.js';
import { listOrders } from './list-orders.handler.js';

const env = await createOrderTestEnv();

async function placeOrders(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const response = await env.app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'idempotency-key': randomUUID() },
      payload: { customerEmail: CUSTOMER_EMAIL, items: ITEMS, paymentToken: 'tok_approve' },
    });
    ids.push(response.json<{ orderId: string }>().orderId);
  }
  return ids;
}

const list = async (query: string) => {
  const response = await env.app.inject({ method: 'GET', url: `/orders${query}` });
  return { statusCode: response.statusCode, page: response.json<OrderList>() };
};

describe('GET /orders', () => {
  it('pages through every order, newest first, with status and version from its summary', async () => {
    const placed = await placeOrders(5);

    const first = await list('?limit=2');
    const second = await list(`?limit=2&cursor=${first.page.nextCursor ?? ''}`);
    const third = await list(`?limit=2&cursor=${second.page.nextCursor ?? ''}`);

    const pages = [first.page, second.page, third.page];
    expect(pages.flatMap((page) => page.orders.map((order) => order.orderId))).toEqual(
      placed.toReversed(),
    );
    expect(third.page.nextCursor).toBeNull();
    expect(first.page.orders[0]).toMatchObject({ status: 'awaiting_inventory', version: 0 });
  });

  it('leaves out a key row whose order was never appended', async () => {
    const [placed] = await placeOrders(1);
    await claimOrderRequest(env.db, {
      idempotencyKey: randomUUID(),
      requestFingerprint: 'crashed-before-append',
      orderId: randomUUID(),
      createdAt: new Date('2030-01-01T00:00:00.000Z'),
    });

    // A page is now always full but the last: ask for one order, not two.
    const { page } = await list('?limit=1');

    expect(page.orders.map((order) => order.orderId)).toEqual([placed]);
    expect(page.nextCursor).not.toBeNull();
  });

  it('refuses a cursor it did not make: 400 INVALID_CURSOR', async () => {
    const response = await env.app.inject({ method: 'GET', url: '/orders?cursor=not-a-cursor' });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('refuses a page larger than 100: 400 VALIDATION_FAILED', async () => {
    const response = await env.app.inject({ method: 'GET', url: '/orders?limit=101' });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('answers a page of 20 with one query on its own database and no stream read', async () => {
    await placeOrders(21);
    const { store, reads } = recordStreamReads(env.store);
    const { db, queries } = countQueries(env.db);

    // Every dependency the service has, so a stream read would be recorded.
    const deps = { ...env, db, store };

    const page = await listOrders(deps, { limit: 20 });

    expect(page.orders).toHaveLength(20);
    expect(queries).toHaveLength(1);
    expect(reads).toEqual([]);
  });

  it('lists what a cancel changed as soon as the cancel answers', async () => {
    const [orderId] = await placeOrders(1);
    await env.app.inject({ method: 'POST', url: `/orders/${orderId ?? ''}/cancel` });

    const { page } = await list('?limit=1');

    expect(page.orders).toEqual([
      expect.objectContaining({ orderId, status: 'cancelling', version: 1 }),
    ]);
  });
});
