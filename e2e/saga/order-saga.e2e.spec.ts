// The order saga end to end: real processes started by the supervisor, real
// PostgreSQL, the fake card processor and the SMTP sink, driven only through
// the public API. Each test makes its own SKUs and orders.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../support/api-client.js';

let api: ApiClient;
beforeAll(() => {
  api = apiClient(inject('gatewayUrl'));
});

/** Inventory consumes a confirmed order's reservation when it hears OrderConfirmed, a moment after the order is confirmed. */
const settledStock = (sku: string) =>
  api.waitFor(
    () => api.stock(sku),
    (stock) => stock.reserved === 0,
    `no units reserved for ${sku}`,
  );

const authorizationsOf = async (orderId: string) =>
  (await api.ledger()).filter((entry) => entry.idempotencyKey === `authorize:${orderId}:1`);

describe('the order saga', () => {
  it('confirms an order with exactly one reservation, one captured authorization and one email', async () => {
    const sku = uniqueSku('happy');
    await api.restock(sku, 5);

    const placed = await api.placeOrder({
      items: [{ sku, quantity: 2 }],
      paymentToken: 'tok_approve',
    });
    expect(placed.status).toBe(201);
    const order = await api.waitForStatus(placed.body.orderId);

    expect(order.status).toBe('confirmed');
    expect(order.timeline.map((entry) => entry.type)).toEqual([
      'OrderPlaced',
      'OrderPaymentRequested',
      'OrderConfirmed',
    ]);
    expect(await settledStock(sku)).toMatchObject({ sku, available: 3, reserved: 0 });
    // Payment captures the authorization when it hears OrderConfirmed.
    const authorizations = await api.waitFor(
      () => authorizationsOf(order.orderId),
      (list) => list.length === 1 && list[0]?.status === 'captured',
      'one captured authorization',
    );
    expect(authorizations).toMatchObject([{ status: 'captured' }]);
    const emails = await api.waitFor(
      () => api.emails(order.orderId),
      (list) => list.length > 0,
      'the email',
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]?.duplicate).toBe(false);
  });

  it('cancels an order there is not enough stock for, with nothing reserved and nothing charged', async () => {
    const sku = uniqueSku('short');
    await api.restock(sku, 1);

    const placed = await api.placeOrder({
      items: [{ sku, quantity: 2 }],
      paymentToken: 'tok_approve',
    });
    const order = await api.waitForStatus(placed.body.orderId);

    expect(order).toMatchObject({ status: 'cancelled', cancellationReason: 'out_of_stock' });
    expect(await api.stock(sku)).toMatchObject({ sku, available: 1, reserved: 0 });
    expect(await authorizationsOf(order.orderId)).toHaveLength(0);
    await api.waitFor(
      () => api.emails(order.orderId),
      (list) => list.length === 1,
      'the cancellation email',
    );
  });

  it('releases the reservation and cancels when the payment is declined', async () => {
    const sku = uniqueSku('declined');
    await api.restock(sku, 5);

    const placed = await api.placeOrder({
      items: [{ sku, quantity: 2 }],
      paymentToken: 'tok_decline',
    });
    const order = await api.waitForStatus(placed.body.orderId);

    expect(order).toMatchObject({ status: 'cancelled', cancellationReason: 'payment_declined' });
    // Cancelled only once both compensations are recorded: the stock released
    // and the card settled (nothing to void after a decline).
    expect(order.timeline.map((entry) => entry.type)).toEqual([
      'OrderPlaced',
      'OrderPaymentRequested',
      'OrderCancellationRequested',
      'OrderCompensated',
      'OrderCompensated',
      'OrderCancelled',
    ]);
    expect(await settledStock(sku)).toMatchObject({ sku, available: 5, reserved: 0 });
    const emails = await api.waitFor(
      () => api.emails(order.orderId),
      (list) => list.length === 1,
      'the email',
    );
    expect(emails[0]?.subject).toMatch(/cancel/i);
    expect(emails[0]?.text).toContain('The 2 items set aside for you were put back');
    expect(emails[0]?.text).toContain('Nothing was held on your card');
  });

  it('declines a token the card processor does not know, instead of leaving the order waiting', async () => {
    const sku = uniqueSku('typo');
    await api.restock(sku, 5);

    const placed = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_aprove',
    });
    const order = await api.waitForStatus(placed.body.orderId);

    expect(order).toMatchObject({ status: 'cancelled', cancellationReason: 'payment_declined' });
    expect(await settledStock(sku)).toMatchObject({ sku, available: 5, reserved: 0 });
    expect(await authorizationsOf(order.orderId)).toHaveLength(0);
  });

  it('answers the same POST /orders twice with one key with one order', async () => {
    const sku = uniqueSku('retry');
    await api.restock(sku, 5);
    const request = {
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_approve',
      idempotencyKey: randomUUID(),
    };

    const [first, second] = await Promise.all([api.placeOrder(request), api.placeOrder(request)]);
    const third = await api.placeOrder(request);

    expect(second.body.orderId).toBe(first.body.orderId);
    expect(third).toEqual(first);
    await api.waitForStatus(first.body.orderId);
    expect(await settledStock(sku)).toMatchObject({ sku, available: 4, reserved: 0 });
  });

  it('confirms once when the provider authorized but the answer timed out', async () => {
    const sku = uniqueSku('timeout');
    await api.restock(sku, 5);

    const placed = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_timeout',
    });
    const order = await api.waitForStatus(placed.body.orderId, undefined, 60_000);

    expect(order.status).toBe('confirmed');
    expect(await authorizationsOf(order.orderId)).toHaveLength(1);
  });

  it('compensates a customer cancel while the payment is in flight: stock back, authorization voided', async () => {
    const sku = uniqueSku('cancel');
    await api.restock(sku, 5);
    // tok_timeout keeps the order awaiting payment for seconds: the provider answers late.
    const placed = await api.placeOrder({
      items: [{ sku, quantity: 2 }],
      paymentToken: 'tok_timeout',
    });
    await api.waitForStatus(placed.body.orderId, (status) => status === 'awaiting_payment');

    await api.cancelOrder(placed.body.orderId);
    const order = await api.waitForStatus(placed.body.orderId, undefined, 60_000);

    expect(order).toMatchObject({ status: 'cancelled', cancellationReason: 'customer_request' });
    expect(await settledStock(sku)).toMatchObject({ sku, available: 5, reserved: 0 });
    // The payment was in flight, so the provider holds exactly one authorization
    // for the attempt, and the cancellation voids it.
    const authorizations = await api.waitFor(
      () => authorizationsOf(order.orderId),
      (list) => list.length === 1 && list[0]?.status === 'voided',
      'one voided authorization',
      30_000,
    );
    expect(authorizations).toMatchObject([{ status: 'voided' }]);
    // The email goes out after the void: it can say the hold was released.
    const emails = await api.waitFor(
      () => api.emails(order.orderId),
      (list) => list.length === 1,
      'the cancellation email',
    );
    expect(emails[0]?.text).toContain('The hold on your card was released');
  });

  it('never oversells: 100 concurrent orders against 30 units', async () => {
    const sku = uniqueSku('rush');
    const stocked = 30;
    await api.restock(sku, stocked);

    const placed = await Promise.all(
      Array.from({ length: 100 }, () =>
        api.placeOrder({ items: [{ sku, quantity: 1 }], paymentToken: 'tok_approve' }),
      ),
    );
    const orders = await Promise.all(
      placed.map((p) => api.waitForStatus(p.body.orderId, undefined, 90_000)),
    );

    const confirmed = orders.filter((order) => order.status === 'confirmed');
    const consumed = confirmed.reduce((sum, order) => sum + (order.items[0]?.quantity ?? 0), 0);
    const stock = await settledStock(sku);
    expect(confirmed).toHaveLength(stocked);
    expect(stock.available + stock.reserved + consumed).toBe(stocked);
    expect(stock).toMatchObject({ sku, available: 0, reserved: 0 });
  });
});
