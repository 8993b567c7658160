// POST /orders/:orderId/cancel, on orders in each status.
import { orderStream } from '@effectively-once/contracts';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cancellationRequested,
  orderCancelled,
  orderConfirmed,
  orderPlaced,
  paymentRequested,
} from '../domain/testing/order.fixtures.js';
import { orderWith } from '../testing/order-history.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { recordStreamReads } from '../testing/stream-reads.js';
import { cancelOrder } from './cancel-order.handler.js';

const env = await createOrderTestEnv();

const cancel = (orderId: string) =>
  env.app.inject({ method: 'POST', url: `/orders/${orderId}/cancel` });

describe('POST /orders/:orderId/cancel', () => {
  it('requests the cancellation of an order awaiting its stock: 200, cancelling', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id)]);

    const response = await cancel(orderId);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'cancelling',
      cancellationReason: 'customer_request',
      version: 1,
    });
    const events = await env.store.readStream(orderStream(orderId));
    expect(events.map((event) => event.type)).toEqual([
      'OrderPlaced',
      'OrderCancellationRequested',
    ]);
  });

  it('requests the cancellation of an order awaiting its payment', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id), paymentRequested(id)]);

    const response = await cancel(orderId);

    expect(response.json()).toMatchObject({ status: 'cancelling', version: 2 });
  });

  it('answers with the order its events make, reading the stream only to load it: what GET then reads', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id), paymentRequested(id)]);
    const { store, reads } = recordStreamReads(env.store);

    const resource = await cancelOrder({ db: env.db, store, now: env.now }, { orderId });

    expect(reads).toEqual([orderStream(orderId)]);
    expect(resource).toMatchObject({ status: 'cancelling', version: 2 });
    const read = await env.app.inject({ method: 'GET', url: `/orders/${orderId}` });
    expect(read.json()).toEqual(resource);
  });

  it('is idempotent: a second cancel answers 200 with the order as it is, appending nothing', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id)]);
    const first = await cancel(orderId);

    const second = await cancel(orderId);

    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await env.store.readStream(orderStream(orderId))).toHaveLength(2);
  });

  it('answers a cancelled order with 200 and its state', async () => {
    const orderId = await orderWith(env.store, (id) => [
      orderPlaced(id),
      orderCancelled(id, 'out_of_stock'),
    ]);

    const response = await cancel(orderId);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'out_of_stock',
    });
  });

  it('answers an order already being cancelled for a declined payment with 200 and its reason', async () => {
    const orderId = await orderWith(env.store, (id) => [
      orderPlaced(id),
      paymentRequested(id),
      cancellationRequested(id, 'payment_declined'),
    ]);

    const response = await cancel(orderId);

    expect(response.json()).toMatchObject({
      status: 'cancelling',
      cancellationReason: 'payment_declined',
    });
  });

  it('refuses a confirmed order: 409 ORDER_ALREADY_CONFIRMED', async () => {
    const orderId = await orderWith(env.store, (id) => [
      orderPlaced(id),
      paymentRequested(id),
      orderConfirmed(id),
    ]);

    const response = await cancel(orderId);

    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'ORDER_ALREADY_CONFIRMED' });
    expect(await env.store.readStream(orderStream(orderId))).toHaveLength(3);
  });

  it('answers an unknown order with 404 ORDER_NOT_FOUND', async () => {
    const response = await cancel(randomUUID());

    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });

  it('answers 500 saying a retry is safe when the summary write fails after the append, and the retry repairs the summary', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id)]);
    // A summary write of this order fails, as a broken statement would, after the append.
    await sql`
      create function fail_summary_write() returns trigger language plpgsql as $$
      begin
        if new.order_id = ${sql.lit(orderId)} then raise exception 'summary write fails'; end if;
        return new;
      end $$`.execute(env.db);
    await sql`create trigger fail_summary_write before insert or update on order_summary
      for each row execute function fail_summary_write()`.execute(env.db);

    const failed = await cancel(orderId);

    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({
      code: 'INTERNAL_ERROR',
      detail: expect.stringContaining('Sending the same request again is safe') as string,
    });
    const types = async () =>
      (await env.store.readStream(orderStream(orderId))).map((event) => event.type);
    expect(await types()).toEqual(['OrderPlaced', 'OrderCancellationRequested']);

    await sql`drop function fail_summary_write cascade`.execute(env.db);
    const retried = await cancel(orderId);

    expect(retried.statusCode).toBe(200);
    expect(await types()).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
    const summary = await env.db
      .selectFrom('order_summary')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    expect(summary).toMatchObject({ status: 'cancelling', version: 1 });
  });
});
