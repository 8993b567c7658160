// inventory-reservation-v1 under real concurrency: deliveries on separate
// connections, forced to overlap. A holder transaction keeps a lock that every
// racer needs; the test waits until PostgreSQL shows each racer blocked on it
// (waitForLockWaiter), and only then lets them go.
import { randomUUID } from 'node:crypto';
import { createTestDatabase, waitForLockWaiter } from '@effectively-once/postgres/testing';
import { sql, type Kysely } from 'kysely';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { describe, expect, it } from 'vitest';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from '../adapters/postgres/inventory-database-migrations.js';
import { restock } from '../adapters/postgres/inventory.repository.js';
import { holdLock, type LockHolder } from '../testing/hold-lock.js';
import { inventoryState } from '../testing/inventory-state.js';
import {
  newSku,
  orderCancellationRequested,
  orderPlaced,
  underNewId,
  type OrderDelivery,
} from '../testing/order-deliveries.js';
import { handleOrderEvent, type OrderEventResult } from './inventory-reservation.handler.js';

const testDb = await createTestDatabase<InventoryDatabase>(inventoryDatabaseMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const { db } = testDb;
const observer = db as Kysely<unknown>;
const now = () => new Date('2026-12-01T10:00:05.000Z');
let racers = 0;

/** Starts a delivery on a pool of its own (one connection), named for pg_stat_activity. */
function startRacer(delivery: OrderDelivery): {
  name: string;
  result: Promise<OrderEventResult>;
} {
  racers += 1;
  const name = `inventory-racer-${String(racers)}`;
  const racerDb = testDb.connect({ maxConnections: 1, applicationName: name });
  return {
    name,
    result: handleOrderEvent({ db: racerDb, now }, delivery.event, delivery.recorded),
  };
}

const holdSkuRow = (sku: string): Promise<LockHolder> =>
  holdLock(db, (trx) =>
    trx.selectFrom('inventory').select('sku').where('sku', '=', sku).forUpdate().execute(),
  );

async function stocked(sku: string, quantity: number): Promise<string> {
  await restock(db, { sku, quantity });
  return sku;
}

describe('racing deliveries', () => {
  it('two placements racing for the last units: one reserved, one rejected, never oversold', async () => {
    const sku = await stocked(newSku(), 3);
    const [first, second] = [randomUUID(), randomUUID()];
    const holder = await holdSkuRow(sku);

    const racerA = startRacer(orderPlaced(first, [{ sku, quantity: 2 }]));
    const racerB = startRacer(orderPlaced(second, [{ sku, quantity: 2 }]));
    await waitForLockWaiter(observer, racerA.name);
    await waitForLockWaiter(observer, racerB.name);
    await holder.release();
    const results = await Promise.all([racerA.result, racerB.result]);

    expect(results.map((result) => result.outcome)).toEqual(['applied', 'applied']);
    expect(
      results.map((result) => (result.outcome === 'applied' ? result.result : '')).sort(),
    ).toEqual(['rejected', 'reserved']);
    const [a, b] = await Promise.all([
      inventoryState(db, { orderId: first, skus: [sku] }),
      inventoryState(db, { orderId: second, skus: [sku] }),
    ]);
    expect(a.stock).toEqual([{ sku, available: 1, reserved: 2 }]);
    expect([...a.reservations, ...b.reservations]).toEqual([
      { sku, quantity: 2, status: 'reserved' },
    ]);
  });

  it('two orders naming the same SKUs in opposite order: both reserve, no deadlock', async () => {
    const [x, y] = [newSku(), newSku()].sort() as [string, string];
    await stocked(x, 10);
    await stocked(y, 10);
    const holder = await holdSkuRow(x);

    // A queues on x first. Were rows locked in line order, B would now take y
    // and wait on x: A, let through first, would wait on y, a deadlock. Locked
    // in SKU order, B queues on x too, holding nothing.
    const racerA = startRacer(
      orderPlaced(randomUUID(), [
        { sku: x, quantity: 1 },
        { sku: y, quantity: 1 },
      ]),
    );
    await waitForLockWaiter(observer, racerA.name);
    const racerB = startRacer(
      orderPlaced(randomUUID(), [
        { sku: y, quantity: 1 },
        { sku: x, quantity: 1 },
      ]),
    );
    await waitForLockWaiter(observer, racerB.name);
    await holder.release();
    const results = await Promise.all([racerA.result, racerB.result]);

    // One attempt each: a deadlock (40P01) would have shown as a second attempt.
    expect(results).toMatchObject([
      { outcome: 'applied', result: 'reserved', attempts: 1 },
      { outcome: 'applied', result: 'reserved', attempts: 1 },
    ]);
    const state = await inventoryState(db, { orderId: randomUUID(), skus: [x, y] });
    expect(state.stock).toEqual([
      { sku: x, available: 8, reserved: 2 },
      { sku: y, available: 8, reserved: 2 },
    ]);
  });

  it('the same placement under two message ids at once: the business key stops the second', async () => {
    const sku = await stocked(newSku(), 10);
    const orderId = randomUUID();
    const placed = orderPlaced(orderId, [{ sku, quantity: 2 }]);
    const holder = await holdSkuRow(sku);

    // Both read "no decision yet" for the order before queueing on the SKU.
    const racerA = startRacer(placed);
    const racerB = startRacer(underNewId(placed));
    await waitForLockWaiter(observer, racerA.name);
    await waitForLockWaiter(observer, racerB.name);
    await holder.release();
    const results = await Promise.all([racerA.result, racerB.result]);

    expect(results.map((result) => result.outcome).sort()).toEqual(['applied', 'duplicate']);
    expect(results.find((result) => result.outcome === 'duplicate')).toMatchObject({
      detectedBy: 'business-key',
      constraint: 'inventory_reservation_pkey',
    });
    const state = await inventoryState(db, { orderId, skus: [sku] });
    expect(state.stock).toEqual([{ sku, available: 8, reserved: 2 }]);
    expect(state.reservations).toEqual([{ sku, quantity: 2, status: 'reserved' }]);
    expect(state.outbox.map((row) => row.event_type)).toEqual(['InventoryReserved']);
  });

  it('a cancellation committed while its placement waits: the placement reserves nothing', async () => {
    const sku = await stocked(newSku(), 10);
    const orderId = randomUUID();
    const holder = await holdSkuRow(sku);

    const placement = startRacer(orderPlaced(orderId, [{ sku, quantity: 2 }]));
    await waitForLockWaiter(observer, placement.name);
    const cancellation = await handleOrderEvent(
      { db, now },
      ...asArgs(orderCancellationRequested(orderId, 1)),
    );
    await holder.release();
    const placed = await placement.result;

    expect(cancellation).toMatchObject({ outcome: 'applied', result: 'released' });
    // The order's row was written by the cancellation: inventory_order_pkey says "decided".
    expect(placed).toMatchObject({
      outcome: 'duplicate',
      detectedBy: 'business-key',
      constraint: 'inventory_order_pkey',
    });
    const state = await inventoryState(db, { orderId, skus: [sku] });
    expect(state.stock).toEqual([{ sku, available: 10, reserved: 0 }]);
    expect(state.reservations).toEqual([]);
    expect(state.order).toEqual({ status: 'released', order_version: 1 });
    expect(state.outbox).toMatchObject([{ event_type: 'InventoryReleased', data: { items: [] } }]);
  });

  it('a cancellation that meets its placement uncommitted: it waits, then releases what was reserved', async () => {
    const sku = await stocked(newSku(), 10);
    const orderId = randomUUID();
    // The placement stops at its last statement, the outbox insert, with its
    // decision row written but not committed.
    const holder = await holdLock(db, (trx) =>
      sql`lock table outbox in exclusive mode`.execute(trx),
    );

    const placement = startRacer(orderPlaced(orderId, [{ sku, quantity: 2 }]));
    await waitForLockWaiter(observer, placement.name);
    const cancellation = startRacer(orderCancellationRequested(orderId, 1));
    await waitForLockWaiter(observer, cancellation.name);
    await holder.release();
    const results = await Promise.all([placement.result, cancellation.result]);

    expect(results).toMatchObject([
      { outcome: 'applied', result: 'reserved' },
      { outcome: 'applied', result: 'released' },
    ]);
    const state = await inventoryState(db, { orderId, skus: [sku] });
    expect(state.stock).toEqual([{ sku, available: 10, reserved: 0 }]);
    expect(state.reservations).toEqual([]);
    expect(state.order).toEqual({ status: 'released', order_version: 1 });
    expect(state.outbox).toMatchObject([
      { event_type: 'InventoryReserved' },
      { event_type: 'InventoryReleased', data: { items: [{ sku, quantity: 2 }] } },
    ]);
  });
});

function asArgs(delivery: OrderDelivery) {
  return [delivery.event, delivery.recorded] as const;
}
