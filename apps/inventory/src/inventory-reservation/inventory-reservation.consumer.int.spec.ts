// inventory-reservation-v1 against a real PostgreSQL: each order event's
// effect on stock, reservations, the order's state and the outbox, and what a
// duplicate, a replay under a new id, a late event or a race leaves behind.
import { randomUUID } from 'node:crypto';
import { ConsumerFailure } from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { describe, expect, it } from 'vitest';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from '../adapters/postgres/inventory-database-migrations.js';
import { restock } from '../adapters/postgres/inventory.repository.js';
import { inventoryState, markerCount } from '../testing/inventory-state.js';
import {
  newSku,
  orderCancellationRequested,
  orderConfirmed,
  orderDelivery,
  orderPlaced,
  underNewId,
  type OrderDelivery,
} from '../testing/order-deliveries.js';
import { handleOrderEvent } from './inventory-reservation.handler.js';

const testDb = await createTestDatabase<InventoryDatabase>(inventoryDatabaseMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const { db } = testDb;
const now = () => new Date('2026-12-01T10:00:05.000Z');
const deliver = (delivery: OrderDelivery) =>
  handleOrderEvent({ db, now }, delivery.event, delivery.recorded);

async function stocked(...levels: number[]): Promise<string[]> {
  const skus = levels.map(() => newSku()).sort();
  for (const [index, sku] of skus.entries()) await restock(db, { sku, quantity: levels[index]! });
  return skus;
}

describe('OrderPlaced', () => {
  it('reserves every line: stock moves to reserved, one reservation per line, one outbox event', async () => {
    const [mug, tea] = await stocked(5, 10);
    const orderId = randomUUID();
    const placed = orderPlaced(orderId, [
      { sku: tea!, quantity: 4 },
      { sku: mug!, quantity: 2 },
    ]);

    const result = await deliver(placed);

    expect(result).toMatchObject({ outcome: 'applied', result: 'reserved' });
    const state = await inventoryState(db, { orderId, skus: [mug!, tea!] });
    expect(state.stock).toEqual([
      { sku: mug, available: 3, reserved: 2 },
      { sku: tea, available: 6, reserved: 4 },
    ]);
    expect(state.reservations).toEqual([
      { sku: mug, quantity: 2, status: 'reserved' },
      { sku: tea, quantity: 4, status: 'reserved' },
    ]);
    expect(state.order).toEqual({ status: 'reserved', order_version: 0 });
    expect(state.outbox).toEqual([
      {
        event_id: expect.any(String) as string,
        event_type: 'InventoryReserved',
        data: {
          orderId,
          items: [
            { sku: tea, quantity: 4 },
            { sku: mug, quantity: 2 },
          ],
          reservedAt: '2026-12-01T10:00:05.000Z',
        },
        metadata: { correlationId: orderId, causationId: placed.recorded.id, schemaVersion: 1 },
      },
    ]);
  });

  it('the same message twice: the second is a duplicate by marker and changes nothing', async () => {
    const [sku] = await stocked(5);
    const orderId = randomUUID();
    const placed = orderPlaced(orderId, [{ sku: sku!, quantity: 2 }]);
    await deliver(placed);
    const before = await inventoryState(db, { orderId, skus: [sku!] });

    const again = await deliver(placed);

    expect(again).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(await inventoryState(db, { orderId, skus: [sku!] })).toEqual(before);
    expect(await markerCount(db, [placed.recorded.id])).toBe(1);
  });

  it('the same fact under a new message id: no second reservation, no second event', async () => {
    const [sku] = await stocked(5);
    const orderId = randomUUID();
    const placed = orderPlaced(orderId, [{ sku: sku!, quantity: 2 }]);
    await deliver(placed);
    const before = await inventoryState(db, { orderId, skus: [sku!] });

    const replayed = await deliver(underNewId(placed));

    // Committed first, so the order's row is there: the transition rule says nothing to do.
    expect(replayed).toMatchObject({ outcome: 'applied', result: 'nothing' });
    expect(await inventoryState(db, { orderId, skus: [sku!] })).toEqual(before);
  });

  it('not enough stock of one line: the order is rejected and nothing is reserved', async () => {
    const [mug, tea] = await stocked(1, 10);
    const orderId = randomUUID();

    const result = await deliver(
      orderPlaced(orderId, [
        { sku: mug!, quantity: 2 },
        { sku: tea!, quantity: 1 },
      ]),
    );

    expect(result).toMatchObject({ outcome: 'applied', result: 'rejected' });
    const state = await inventoryState(db, { orderId, skus: [mug!, tea!] });
    expect(state.stock).toEqual([
      { sku: mug, available: 1, reserved: 0 },
      { sku: tea, available: 10, reserved: 0 },
    ]);
    expect(state.reservations).toEqual([]);
    expect(state.order).toEqual({ status: 'rejected', order_version: 0 });
    expect(state.outbox).toMatchObject([
      {
        event_type: 'InventoryReservationRejected',
        data: { orderId, shortages: [{ sku: mug, requested: 2, available: 1 }] },
      },
    ]);
  });

  it('an unknown SKU counts as 0 available: rejected', async () => {
    const orderId = randomUUID();
    const ghost = newSku();

    const result = await deliver(orderPlaced(orderId, [{ sku: ghost, quantity: 1 }]));

    expect(result).toMatchObject({ outcome: 'applied', result: 'rejected' });
    const state = await inventoryState(db, { orderId, skus: [ghost] });
    expect(state.outbox).toMatchObject([
      { data: { shortages: [{ sku: ghost, requested: 1, available: 0 }] } },
    ]);
  });

  it('passes the trace context of the order event on to the outgoing event', async () => {
    const [sku] = await stocked(1);
    const orderId = randomUUID();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const placed = orderDelivery(orderPlaced(orderId, [{ sku: sku!, quantity: 1 }]).event, 0, {
      traceparent,
    });

    await deliver(placed);

    const state = await inventoryState(db, { orderId, skus: [sku!] });
    expect(state.outbox[0]?.metadata).toEqual({
      correlationId: orderId,
      causationId: placed.recorded.id,
      schemaVersion: 1,
      traceparent,
    });
  });
});

describe('OrderCancellationRequested', () => {
  it('after a reservation: the stock comes back, the lines go, InventoryReleased names them', async () => {
    const [sku] = await stocked(5);
    const orderId = randomUUID();
    await deliver(orderPlaced(orderId, [{ sku: sku!, quantity: 2 }]));

    const result = await deliver(orderCancellationRequested(orderId, 1));

    expect(result).toMatchObject({ outcome: 'applied', result: 'released' });
    const state = await inventoryState(db, { orderId, skus: [sku!] });
    expect(state.stock).toEqual([{ sku, available: 5, reserved: 0 }]);
    expect(state.reservations).toEqual([]);
    expect(state.order).toEqual({ status: 'released', order_version: 1 });
    expect(state.outbox.map((row) => [row.event_type, row.data])).toEqual([
      ['InventoryReserved', expect.anything()],
      [
        'InventoryReleased',
        { orderId, items: [{ sku, quantity: 2 }], releasedAt: '2026-12-01T10:00:05.000Z' },
      ],
    ]);
  });

  it('releasing twice (a new message id) gives nothing back twice and emits nothing', async () => {
    const [sku] = await stocked(5);
    const orderId = randomUUID();
    await deliver(orderPlaced(orderId, [{ sku: sku!, quantity: 2 }]));
    const cancellation = orderCancellationRequested(orderId, 1);
    await deliver(cancellation);
    const before = await inventoryState(db, { orderId, skus: [sku!] });

    const again = await deliver(underNewId(cancellation));

    expect(again).toMatchObject({ outcome: 'applied', result: 'nothing' });
    expect(await inventoryState(db, { orderId, skus: [sku!] })).toEqual(before);
  });

  it('before the placement: the later placement reserves nothing and emits nothing', async () => {
    const [sku] = await stocked(5);
    const orderId = randomUUID();
    const placed = orderPlaced(orderId, [{ sku: sku!, quantity: 2 }]);

    const cancelled = await deliver(orderCancellationRequested(orderId, 1));
    const late = await deliver(placed);

    expect(cancelled).toMatchObject({ outcome: 'applied', result: 'released' });
    expect(late).toMatchObject({ outcome: 'applied', result: 'nothing' });
    const state = await inventoryState(db, { orderId, skus: [sku!] });
    expect(state.stock).toEqual([{ sku, available: 5, reserved: 0 }]);
    expect(state.reservations).toEqual([]);
    expect(state.order).toEqual({ status: 'released', order_version: 1 });
    expect(state.outbox).toMatchObject([
      { event_type: 'InventoryReleased', data: { orderId, items: [] } },
    ]);
  });

  it('after a rejection: InventoryReleased with no items, so the saga can finish the cancellation', async () => {
    const [sku] = await stocked(1);
    const orderId = randomUUID();
    await deliver(orderPlaced(orderId, [{ sku: sku!, quantity: 2 }]));

    const result = await deliver(orderCancellationRequested(orderId, 1));

    expect(result).toMatchObject({ outcome: 'applied', result: 'released' });
    const state = await inventoryState(db, { orderId, skus: [sku!] });
    expect(state.stock).toEqual([{ sku, available: 1, reserved: 0 }]);
    expect(state.order).toEqual({ status: 'released', order_version: 1 });
    expect(state.outbox.map((row) => [row.event_type, row.data])).toEqual([
      ['InventoryReservationRejected', expect.anything()],
      ['InventoryReleased', { orderId, items: [], releasedAt: '2026-12-01T10:00:05.000Z' }],
    ]);
  });
});

describe('OrderConfirmed', () => {
  it('consumes the reservation and keeps available + reserved + consumed = everything restocked', async () => {
    const [sku] = await stocked(10);
    await restock(db, { sku: sku!, quantity: 5 });
    const [kept, cancelled, rejected] = [randomUUID(), randomUUID(), randomUUID()];
    await deliver(orderPlaced(kept, [{ sku: sku!, quantity: 3 }]));
    await deliver(orderPlaced(cancelled, [{ sku: sku!, quantity: 4 }]));
    await deliver(orderPlaced(rejected, [{ sku: sku!, quantity: 9 }]));
    await deliver(orderCancellationRequested(cancelled, 1));
    const confirmation = orderConfirmed(kept, 2);

    const result = await deliver(confirmation);
    const again = await deliver(underNewId(confirmation));

    expect(result).toMatchObject({ outcome: 'applied', result: 'consumed' });
    expect(again).toMatchObject({ outcome: 'applied', result: 'nothing' });
    const state = await inventoryState(db, { orderId: kept, skus: [sku!] });
    expect(state.stock).toEqual([{ sku, available: 12, reserved: 0 }]);
    expect(state.reservations).toEqual([{ sku, quantity: 3, status: 'consumed' }]);
    expect(state.order).toEqual({ status: 'consumed', order_version: 2 });
    // Nobody waits for a consumption: the only event of the order is its reservation.
    expect(state.outbox.map((row) => row.event_type)).toEqual(['InventoryReserved']);
    await expectStockInvariant(sku!, 15);
  });

  it('for an order this service never reserved: a terminal failure, nothing committed', async () => {
    const orderId = randomUUID();
    const confirmation = orderConfirmed(orderId, 2);

    const failure = await deliver(confirmation).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ConsumerFailure);
    expect(failure).toMatchObject({ kind: 'terminal' });
    expect(await markerCount(db, [confirmation.recorded.id])).toBe(0);
    expect(await inventoryState(db, { orderId, skus: [] })).toMatchObject({
      order: undefined,
      outbox: [],
    });
  });
});

it('acknowledges order events it does not act on as ignored, without a marker', async () => {
  const orderId = randomUUID();
  const requested = orderDelivery(
    {
      type: 'OrderPaymentRequested',
      data: {
        orderId,
        paymentAttemptId: `${orderId}:1`,
        paymentToken: 'tok_approve',
        amountCents: 1_000,
        requestedAt: '2026-12-01T10:00:00.000Z',
      },
    },
    1,
  );

  expect(await deliver(requested)).toEqual({ outcome: 'ignored' });
  expect(await markerCount(db, [requested.recorded.id])).toBe(0);
});

/** For one SKU: available + reserved + consumed quantities = stocked = everything restocked. */
async function expectStockInvariant(sku: string, restocked: number): Promise<void> {
  const stock = await db
    .selectFrom('inventory')
    .select(['available', 'reserved', 'stocked'])
    .where('sku', '=', sku)
    .executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom('inventory_reservation')
    .select(['quantity', 'status'])
    .where('sku', '=', sku)
    .execute();
  const sum = (status: string) =>
    lines
      .filter((line) => line.status === status)
      .reduce((total, line) => total + line.quantity, 0);
  expect(stock.reserved).toBe(sum('reserved'));
  expect(stock.stocked).toBe(restocked);
  expect(stock.available + stock.reserved + sum('consumed')).toBe(stock.stocked);
}
